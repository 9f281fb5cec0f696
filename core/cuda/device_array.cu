#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <string>

namespace solvent::cuda {

namespace {
cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, void* stream,
          const char* context, const char* what) {
  if (bytes != 0) check(cudaMemcpyAsync(dst, src, bytes, kind, as_stream(stream)), context, what);
}
}  // namespace

void* allocate(std::size_t bytes, const char* context) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw SolverError(std::string(context) + ": cannot allocate " + std::to_string(bytes) +
                      " bytes of device memory: " + cudaGetErrorString(e));
  }
  check(cudaMemset(p, 0, bytes), context, "cudaMemset");
  return p;
}

void release(void* p) noexcept {
  if (p != nullptr) cudaFree(p);
}

void* allocate_pinned(std::size_t bytes, const char* context) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  check(cudaMallocHost(&p, bytes), context, "cudaMallocHost");
  return p;
}

void release_pinned(void* p) noexcept {
  if (p != nullptr) cudaFreeHost(p);
}

void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream,
                    const char* context) {
  copy(dst, src, bytes, cudaMemcpyHostToDevice, stream, context, "copy to the device");
}

void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream,
                  const char* context) {
  copy(dst, src, bytes, cudaMemcpyDeviceToHost, stream, context, "copy to the host");
}

void synchronize(const char* context) {
  check(cudaDeviceSynchronize(), context, "cudaDeviceSynchronize");
}

PinnedRegion::PinnedRegion(void* p, std::size_t bytes, const char* context) {
  if (p == nullptr || bytes == 0) return;
  check(cudaHostRegister(p, bytes, cudaHostRegisterDefault), context, "cudaHostRegister");
  p_ = p;
}

PinnedRegion::~PinnedRegion() {
  if (p_ != nullptr) cudaHostUnregister(p_);
}

}  // namespace solvent::cuda
