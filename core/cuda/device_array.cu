#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>
#include <solvent/host_array.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

namespace solvent::cuda {

namespace {
cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// A synchronous copy of this size or more between the device and pageable host memory goes
// through two page-locked buffers in turn: the host's threads fill (or empty) one while the
// bus carries the other. The runtime stages pageable memory itself, but with one thread's
// memcpy, a few GB/s (an operator of four 1 GiB arrays took most of a 512^3 MATM set-up);
// below this size, allocating the two buffers costs more than it saves.
constexpr std::size_t staged_from = std::size_t(256) << 20;
constexpr std::size_t stage_bytes = std::size_t(32) << 20;

bool pageable(const void* host) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeUnregistered;
}

void staged_copy(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                 cudaMemcpyKind kind, const char* context, const char* what) {
  const bool to_device = kind == cudaMemcpyHostToDevice;
  PinnedArray<unsigned char> stage[2] = {PinnedArray<unsigned char>(stage_bytes, context),
                                         PinnedArray<unsigned char>(stage_bytes, context)};
  // A blocking stream: ordered after the default stream's earlier work, as the plain copy is.
  cudaStream_t stream = nullptr;
  cudaEvent_t done[2] = {nullptr, nullptr};
  check(cudaStreamCreate(&stream), context, "cudaStreamCreate");
  struct Release {
    cudaStream_t& s;
    cudaEvent_t* e;
    ~Release() {
      for (int k = 0; k < 2; ++k)
        if (e[k]) cudaEventDestroy(e[k]);
      cudaStreamDestroy(s);
    }
  } release{stream, done};
  for (auto& e : done) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), context, what);
  const std::size_t chunks = (bytes + stage_bytes - 1) / stage_bytes;
  auto length = [&](std::size_t c) { return std::min(stage_bytes, bytes - c * stage_bytes); };
  auto start = [&](std::size_t c) {  // device to host: chunk c into its buffer
    const int k = int(c % 2);
    check(cudaMemcpyAsync(stage[k].data(), src + c * stage_bytes, length(c),
                          cudaMemcpyDeviceToHost, stream),
          context, what);
    check(cudaEventRecord(done[k], stream), context, what);
  };
  if (!to_device) start(0);
  for (std::size_t c = 0; c < chunks; ++c) {
    const int k = int(c % 2);
    if (to_device) {
      if (c >= 2) check(cudaEventSynchronize(done[k]), context, what);
      host_memory::copy(stage[k].data(), src + c * stage_bytes, length(c));
      check(cudaMemcpyAsync(dst + c * stage_bytes, stage[k].data(), length(c),
                            cudaMemcpyHostToDevice, stream),
            context, what);
      check(cudaEventRecord(done[k], stream), context, what);
    } else {
      if (c + 1 < chunks) start(c + 1);
      check(cudaEventSynchronize(done[k]), context, what);
      host_memory::copy(dst + c * stage_bytes, stage[k].data(), length(c));
    }
  }
  check(cudaStreamSynchronize(stream), context, what);
}

void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, void* stream,
          const char* context, const char* what) {
  if (bytes == 0) return;
  const void* host = kind == cudaMemcpyHostToDevice ? src : dst;
  if (stream == nullptr && bytes >= staged_from && pageable(host)) {
    staged_copy(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes,
                kind, context, what);
    return;
  }
  check(cudaMemcpyAsync(dst, src, bytes, kind, as_stream(stream)), context, what);
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
  // cudaMemset runs on the legacy default stream, and the plugins' streams are made with
  // cudaStreamNonBlocking, which do not wait for it: without this wait a copy into the new
  // buffer on such a stream could be overwritten by the zeros when the device is busy with
  // other work (the dense solvers then factored a zero matrix).
  check(cudaStreamSynchronize(nullptr), context, "cudaMemset");
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
