#include <solvent_test/device_vector.hpp>

#include <solvent/cuda.hpp>

#include <cuda_runtime.h>

namespace solvent::test {

void* device_allocate(std::size_t bytes) {
  void* p = nullptr;
  solvent::cuda::check(cudaMalloc(&p, bytes), "device test vector", "cudaMalloc");
  return p;
}

void device_free(void* p) noexcept { cudaFree(p); }

void copy_to_device(void* to, const void* from, std::size_t bytes) {
  solvent::cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice), "device test vector",
                       "cudaMemcpy to the device");
}

void copy_to_host(void* to, const void* from, std::size_t bytes) {
  solvent::cuda::check(cudaMemcpy(to, from, bytes, cudaMemcpyDeviceToHost), "device test vector",
                       "cudaMemcpy to the host");
}

}  // namespace solvent::test
