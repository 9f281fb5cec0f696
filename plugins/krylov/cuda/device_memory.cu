#include <solvent_krylov/device_memory.hpp>

#include "cuda/cuda_support.cuh"

namespace solvent::krylov::device {


void* allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess)
    throw SolverError("cannot allocate " + std::to_string(bytes) + " bytes of device memory (" +
                      cudaGetErrorString(e) + ")");
  check(cudaMemset(p, 0, bytes), "cudaMemset");
  return p;
}

void release(void* p) noexcept {
  if (p) cudaFree(p);
}

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  check(cudaMallocHost(&p, bytes), "cudaMallocHost");
  return p;
}

void release_pinned(void* p) noexcept {
  if (p) cudaFreeHost(p);
}

PinnedRegion::PinnedRegion(void* p, std::size_t bytes) {
  if (!p || bytes == 0) return;
  check(cudaHostRegister(p, bytes, cudaHostRegisterDefault), "cudaHostRegister");
  p_ = p;
}

PinnedRegion::~PinnedRegion() {
  if (p_) cudaHostUnregister(p_);
}

void copy_to_device(void* dst, const void* src, std::size_t bytes) {
  if (bytes) check(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

void copy_to_host(void* dst, const void* src, std::size_t bytes) {
  if (bytes) check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

}  // namespace solvent::krylov::device
