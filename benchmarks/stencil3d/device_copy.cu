#include "device_copy.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace stencil3d_bench {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

double copy_bandwidth(double bytes, int repeats) {
  const auto n = static_cast<std::size_t>(bytes);
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, n), "cudaMalloc");
  check(cudaMalloc(&b, n), "cudaMalloc");
  check(cudaMemset(a, 1, n), "cudaMemset");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> ms(static_cast<std::size_t>(repeats));
  for (int r = -2; r < repeats; ++r) {  // two warm-up copies
    check(cudaEventRecord(start), "cudaEventRecord");
    check(cudaMemcpy(b, a, n, cudaMemcpyDeviceToDevice), "cudaMemcpy");
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    if (r >= 0) check(cudaEventElapsedTime(&ms[static_cast<std::size_t>(r)], start, stop), "elapsed");
  }
  std::sort(ms.begin(), ms.end());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (1e-3 * ms[ms.size() / 2]);
}

}  // namespace stencil3d_bench
