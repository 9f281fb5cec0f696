#pragma once
// Device memory for every CUDA plugin and test, usable from plain C++ (target Solvent::cuda):
// one owning array in the current device's global memory, one in pinned host memory, the
// raw allocations beneath them, and the copies. No CUDA header is included: a stream is
// passed as void* (a cudaStream_t converts to it), so host code of a plugin holds its
// device vectors without nvcc.
//
// Failures throw SolverError "<context>: <what>: <CUDA's own text>" as cuda::check does;
// context names the plugin and defaults to a neutral name for tests.
#include <cstddef>
#include <utility>

namespace solvent::cuda {

inline constexpr const char* device_memory_context = "device memory";

// cudaMalloc of `bytes`, zero-filled, so a buffer never holds a previous user's numbers;
// null for zero bytes. Out of memory is a SolverError naming the size.
void* allocate(std::size_t bytes, const char* context = device_memory_context);
void release(void* p) noexcept;
void* allocate_pinned(std::size_t bytes, const char* context = device_memory_context);
void release_pinned(void* p) noexcept;

// Copies of `bytes` (nothing for zero), ordered on `stream` (null: the default stream).
// Host memory that is not pinned makes them synchronous; pinned memory lets the host go on.
// On the default stream a copy of 64 MiB or more of pageable memory goes through page-locked
// buffers that all the host's threads fill, at the bus's speed rather than one memcpy's (the
// calling thread's StagedCopies for the device and context, kept for its next copies).
void copy_to_device(void* dst, const void* src, std::size_t bytes, void* stream = nullptr,
                    const char* context = device_memory_context);
void copy_to_host(void* dst, const void* src, std::size_t bytes, void* stream = nullptr,
                  const char* context = device_memory_context);
void synchronize(const char* context = device_memory_context);

// Page-locks existing host memory (cudaHostRegister) while the object lives, so copies to and
// from it run at the bus's speed; nothing for null or zero bytes.
class PinnedRegion {
 public:
  PinnedRegion() = default;
  PinnedRegion(void* p, std::size_t bytes, const char* context = device_memory_context);
  ~PinnedRegion();
  PinnedRegion(PinnedRegion&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  PinnedRegion& operator=(PinnedRegion&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

 private:
  void* p_ = nullptr;
};

namespace detail {
struct DeviceMemory {
  static void* allocate(std::size_t bytes, const char* c) { return cuda::allocate(bytes, c); }
  static void release(void* p) noexcept { cuda::release(p); }
};
struct PinnedMemory {
  static void* allocate(std::size_t bytes, const char* c) { return allocate_pinned(bytes, c); }
  static void release(void* p) noexcept { release_pinned(p); }
};

// An owning, move-only array of n elements of T in the memory Memory allocates.
template <class T, class Memory>
class OwnedArray {
 public:
  OwnedArray() = default;
  explicit OwnedArray(std::size_t n, const char* context = device_memory_context)
      : p_(static_cast<T*>(Memory::allocate(n * sizeof(T), context))), n_(n), context_(context) {}
  ~OwnedArray() { Memory::release(p_); }
  OwnedArray(OwnedArray&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), context_(o.context_) {}
  OwnedArray& operator=(OwnedArray&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(context_, o.context_);
    return *this;
  }
  OwnedArray(const OwnedArray&) = delete;
  OwnedArray& operator=(const OwnedArray&) = delete;

  // n elements, zero-filled; reallocates only when n differs from the size, so the repeated
  // set-ups of one order (a new matrix every time step) allocate nothing.
  void resize(std::size_t n) {
    if (n != n_) *this = OwnedArray(n, context_);
  }

  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }
  const char* context() const { return context_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
  const char* context_ = device_memory_context;
};
}  // namespace detail

// An array in the current device's global memory, with copies to and from host memory.
template <class T>
class DeviceArray : public detail::OwnedArray<T, detail::DeviceMemory> {
  using Base = detail::OwnedArray<T, detail::DeviceMemory>;

 public:
  using Base::Base;
  // n elements, filled from host memory.
  DeviceArray(const T* host, std::size_t n, const char* context = device_memory_context)
      : Base(n, context) {
    upload(host, n);
  }
  // The first `count` elements from or to host memory, ordered on `stream` (see the copies).
  void upload(const T* host, std::size_t count, void* stream = nullptr) {
    copy_to_device(this->data(), host, count * sizeof(T), stream, this->context());
  }
  void download(T* host, std::size_t count, void* stream = nullptr) const {
    copy_to_host(host, this->data(), count * sizeof(T), stream, this->context());
  }
};

// An array in pinned (page-locked) host memory: scalars a kernel writes and the host reads
// at every iteration, staging buffers of asynchronous copies.
template <class T>
using PinnedArray = detail::OwnedArray<T, detail::PinnedMemory>;

// Synchronous copies between pageable host memory and the device through two page-locked
// buffers (32 MiB each) that the host's threads fill, or empty, in turn while the bus carries
// the other: the staging the default stream's large copies use (see the copies above). One
// object keeps its buffers and stream for all its copies, for many arrays moved one after
// another: made per copy, the buffers cost more than a copy of a hundred MiB, and the runtime's
// own staging of pageable memory is one thread's memcpy.
class StagedCopies {
 public:
  explicit StagedCopies(const char* context = device_memory_context);
  ~StagedCopies();
  StagedCopies(const StagedCopies&) = delete;
  StagedCopies& operator=(const StagedCopies&) = delete;
  void to_device(void* dst, const void* src, std::size_t bytes);
  void to_host(void* dst, const void* src, std::size_t bytes);

 private:
  void copy(unsigned char* dst, const unsigned char* src, std::size_t bytes, bool to_device);
  void release() noexcept;
  const char* context_;
  PinnedArray<unsigned char> stage_[2];
  void* stream_ = nullptr;
  void* done_[2] = {nullptr, nullptr};
};

}  // namespace solvent::cuda
