#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>
#include <solvent/host_array.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace solvent::cuda {

namespace {
cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

// A synchronous copy of this size or more between the device and pageable host memory goes
// through two page-locked buffers in turn: the host's threads fill (or empty) one while the
// bus carries the other. The runtime stages pageable memory itself, but with one thread's
// memcpy, a few GB/s (an operator of four 1 GiB arrays took most of a 512^3 MATM set-up, and
// a time step's three 128 MiB vectors at 256^3 a third of its solve). From two buffers'
// worth: a smaller copy has one chunk or two, and little of its memcpy to hide.
constexpr std::size_t stage_bytes = std::size_t(32) << 20;
constexpr std::size_t staged_from = 2 * stage_bytes;

bool pageable(const void* host) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeUnregistered;
}

}  // namespace

StagedCopies::StagedCopies(const char* context)
    : context_(context),
      stage_{PinnedArray<unsigned char>(stage_bytes, context),
             PinnedArray<unsigned char>(stage_bytes, context)} {
  try {
    // A blocking stream: ordered after the default stream's earlier work, as a plain copy is.
    cudaStream_t stream = nullptr;
    check(cudaStreamCreate(&stream), context, "cudaStreamCreate");
    stream_ = stream;
    for (auto& e : done_) {
      cudaEvent_t event = nullptr;
      check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), context, "cudaEventCreate");
      e = event;
    }
  } catch (...) {
    release();
    throw;
  }
}

StagedCopies::~StagedCopies() { release(); }

void StagedCopies::release() noexcept {
  for (auto& e : done_)
    if (e != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(std::exchange(e, nullptr)));
  if (stream_ != nullptr) cudaStreamDestroy(as_stream(std::exchange(stream_, nullptr)));
}

void StagedCopies::to_device(void* dst, const void* src, std::size_t bytes) {
  copy(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes, true);
}

void StagedCopies::to_host(void* dst, const void* src, std::size_t bytes) {
  copy(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), bytes, false);
}

void StagedCopies::copy(unsigned char* dst, const unsigned char* src, std::size_t bytes,
                        bool to_device) {
  const char* what = to_device ? "copy to the device" : "copy to the host";
  cudaStream_t stream = as_stream(stream_);
  auto event = [&](int k) { return static_cast<cudaEvent_t>(done_[k]); };
  const std::size_t chunks = (bytes + stage_bytes - 1) / stage_bytes;
  auto length = [&](std::size_t c) { return std::min(stage_bytes, bytes - c * stage_bytes); };
  auto start = [&](std::size_t c) {  // device to host: chunk c into its buffer
    const int k = int(c % 2);
    check(cudaMemcpyAsync(stage_[k].data(), src + c * stage_bytes, length(c),
                          cudaMemcpyDeviceToHost, stream),
          context_, what);
    check(cudaEventRecord(event(k), stream), context_, what);
  };
  if (!to_device && chunks > 0) start(0);
  for (std::size_t c = 0; c < chunks; ++c) {
    const int k = int(c % 2);
    if (to_device) {
      // The buffer's previous copy has left it: chunk c - 2, or the last copy of an earlier
      // call, which may have been cut short by a failure before its stream was waited for
      // (an event never recorded is complete).
      check(cudaEventSynchronize(event(k)), context_, what);
      host_memory::copy(stage_[k].data(), src + c * stage_bytes, length(c));
      check(cudaMemcpyAsync(dst + c * stage_bytes, stage_[k].data(), length(c),
                            cudaMemcpyHostToDevice, stream),
            context_, what);
      check(cudaEventRecord(event(k), stream), context_, what);
    } else {
      if (c + 1 < chunks) start(c + 1);
      check(cudaEventSynchronize(event(k)), context_, what);
      host_memory::copy(dst + c * stage_bytes, stage_[k].data(), length(c));
    }
  }
  check(cudaStreamSynchronize(stream), context_, what);
}

namespace {

// The calling thread's stager for the current device and `context`, made at its first large
// copy and kept for the thread's life: its buffers cost more to allocate than a copy of a
// hundred MiB, and a solver inside time stepping copies its vectors at every step. Per thread,
// so that concurrent copies never share a buffer; per device, because its stream belongs to
// one; per context, because failures name the plugin whose copy it was.
StagedCopies& thread_stager(const char* context) {
  thread_local std::map<std::pair<int, const char*>, std::unique_ptr<StagedCopies>> stagers;
  int device = 0;
  check(cudaGetDevice(&device), context, "cudaGetDevice");
  auto& stager = stagers[{device, context}];
  if (!stager) stager = std::make_unique<StagedCopies>(context);
  return *stager;
}

void copy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, void* stream,
          const char* context, const char* what) {
  if (bytes == 0) return;
  const void* host = kind == cudaMemcpyHostToDevice ? src : dst;
  if (stream == nullptr && bytes >= staged_from && pageable(host)) {
    StagedCopies& staged = thread_stager(context);
    if (kind == cudaMemcpyHostToDevice)
      staged.to_device(dst, src, bytes);
    else
      staged.to_host(dst, src, bytes);
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
