#include "copy_bandwidth.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

bool ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "copy_bandwidth: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

}  // namespace

double device_copy_bandwidth(double bytes, char* name) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 0.0;
  cudaDeviceProp p{};
  if (!ok(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties")) return 0.0;
  std::snprintf(name, 256, "%s", p.name);
  const std::size_t n = static_cast<std::size_t>(bytes);
  void *a = nullptr, *b = nullptr;
  if (!ok(cudaMalloc(&a, n), "cudaMalloc") || !ok(cudaMalloc(&b, n), "cudaMalloc")) return 0.0;
  ok(cudaMemset(a, 1, n), "cudaMemset");
  cudaEvent_t e0, e1;
  ok(cudaEventCreate(&e0), "cudaEventCreate");
  ok(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<float> ms;
  for (int r = 0; r < 25; ++r) {
    ok(cudaEventRecord(e0), "cudaEventRecord");
    ok(cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    ok(cudaEventRecord(e1), "cudaEventRecord");
    ok(cudaEventSynchronize(e1), "cudaEventSynchronize");
    float t = 0;
    ok(cudaEventElapsedTime(&t, e0, e1), "cudaEventElapsedTime");
    if (r >= 5) ms.push_back(t);  // the first five are warm-up
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (1e-3 * ms[ms.size() / 2]);
}
