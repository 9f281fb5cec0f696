#include "device_ceilings.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace dense_bench {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + " failed");
}

// Random-looking values in [-1, 1) (never zeros: zeros can run faster than real data).
__global__ void fill_kernel(double* a, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    std::uint64_t z = (i + seed) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    a[i] = double(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
  }
}

template <class F>
double median_ms(int repeats, F&& run) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  run();  // warm-up
  std::vector<float> ms(repeats);
  for (auto& m : ms) {
    check(cudaEventRecord(start), "cudaEventRecord");
    run();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check(cudaEventElapsedTime(&m, start, stop), "cudaEventElapsedTime");
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

DeviceCeilings measure_device_ceilings() {
  DeviceCeilings c;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return c;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  c.device = prop.name;

  const std::size_t copy_count = std::size_t(1) << 27;  // 1 GiB of doubles
  double *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, copy_count * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&b, copy_count * sizeof(double)), "cudaMalloc");
  fill_kernel<<<1024, 256>>>(a, copy_count, 1);
  check(cudaGetLastError(), "fill_kernel");
  const double copy_ms = median_ms(10, [&] {
    check(cudaMemcpyAsync(b, a, copy_count * sizeof(double), cudaMemcpyDeviceToDevice), "copy");
  });
  c.copy_gb_per_s = 2.0 * double(copy_count * sizeof(double)) / (copy_ms * 1e6);

  std::vector<double> host(std::size_t(1) << 23, 0.5);  // 64 MiB pageable
  const double h2d_ms = median_ms(5, [&] {
    check(cudaMemcpy(a, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice), "h2d");
  });
  c.host_to_device_gb_per_s = double(host.size() * sizeof(double)) / (h2d_ms * 1e6);

  fill_kernel<<<1024, 256>>>(a, copy_count, 2);  // the copy above left constant data
  check(cudaGetLastError(), "fill_kernel");
  const int n = 8192;
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  double* m = a;                            // three n x n operands inside the two buffers
  double* out = b;
  const double one = 1.0, zero = 0.0;
  const double gemm_ms = median_ms(5, [&] {
    check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, m, n,
                      m + std::size_t(n) * n, n, &zero, out, n),
          "cublasDgemm");
  });
  c.dgemm_tflop_per_s = 2.0 * double(n) * n * n / (gemm_ms * 1e9);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  return c;
}

}  // namespace dense_bench
