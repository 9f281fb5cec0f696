#include "device_ceilings.hpp"

#include <solvent/device/device_array.hpp>
#include <solvent_test/device_timing.hpp>

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
  solvent::cuda::DeviceArray<double> a_array(copy_count), b_array(copy_count);
  double *a = a_array.data(), *b = b_array.data();
  fill_kernel<<<1024, 256>>>(a, copy_count, 1);
  check(cudaGetLastError(), "fill_kernel");
  c.copy_gb_per_s = solvent::test::copy_bandwidth_gbs(copy_count * sizeof(double));

  std::vector<double> host(std::size_t(1) << 23, 0.5);  // 64 MiB pageable
  const double h2d_ms = solvent::test::median_device_ms(
      [&] {
        check(cudaMemcpy(a, host.data(), host.size() * sizeof(double), cudaMemcpyHostToDevice),
              "h2d");
      },
      5, 1);
  c.host_to_device_gb_per_s = double(host.size() * sizeof(double)) / (h2d_ms * 1e6);

  fill_kernel<<<1024, 256>>>(a, copy_count, 2);  // the copy above left constant data
  check(cudaGetLastError(), "fill_kernel");
  const int n = 8192;
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  double* m = a;  // three n x n operands inside the two buffers
  double* out = b;
  const double one = 1.0, zero = 0.0;
  const double gemm_ms = solvent::test::median_device_ms(
      [&] {
        check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, m, n,
                          m + std::size_t(n) * n, n, &zero, out, n),
              "cublasDgemm");
      },
      5, 1);
  c.dgemm_tflop_per_s = 2.0 * double(n) * n * n / (gemm_ms * 1e9);
  cublasDestroy(handle);
  return c;
}

}  // namespace dense_bench
