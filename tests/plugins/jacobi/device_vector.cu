#include "device_vector.hpp"

#include <solvent/cuda.hpp>

#include <cuda_runtime.h>

namespace jacobi_test {

void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  solvent::cuda::check(cudaMalloc(&p, bytes), "jacobi test", "cudaMalloc");
  return p;
}

void device_free(void* p) noexcept { cudaFree(p); }

void copy_to_device(void* to, const void* from, std::size_t bytes) {
  solvent::cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), "jacobi test",
                       "cudaMemcpy to the device");
}

void copy_to_host(void* to, const void* from, std::size_t bytes) {
  solvent::cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "jacobi test",
                       "cudaMemcpy to the host");
}

}  // namespace jacobi_test
