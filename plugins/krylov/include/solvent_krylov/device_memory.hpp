#pragma once
// Device memory for the Krylov CUDA plugins, usable from plain C++:
// an owning device array, pinned host memory for scalars, and the two copies.
#include <cstddef>
#include <string>
#include <utility>

namespace solvent::krylov::device {


void* allocate(std::size_t bytes);  // cudaMalloc, zero-filled; SolverError when out of memory
void release(void* p) noexcept;     // cudaFree
void* allocate_pinned(std::size_t bytes);  // cudaMallocHost
void release_pinned(void* p) noexcept;
// Page-locks existing host memory (cudaHostRegister) while the object lives, so copies to and
// from it run at the bus's speed; nothing for null or zero bytes.
class PinnedRegion {
 public:
  PinnedRegion() = default;
  PinnedRegion(void* p, std::size_t bytes);
  ~PinnedRegion();
  PinnedRegion(PinnedRegion&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  PinnedRegion& operator=(PinnedRegion&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }

 private:
  void* p_ = nullptr;
};
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void synchronize();

// An owning array in device memory.
template <class T>
class Array {
 public:
  Array() = default;
  explicit Array(std::size_t n) : p_(static_cast<T*>(allocate(n * sizeof(T)))), n_(n) {}
  Array(const T* host, std::size_t n) : Array(n) { copy_to_device(p_, host, n * sizeof(T)); }
  ~Array() { release(p_); }
  Array(Array&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  Array& operator=(Array&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;

  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace solvent::krylov::device
