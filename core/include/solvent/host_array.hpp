#pragma once
// HostArray<T>: a fixed-size array in host memory for the large arrays of a run (a grid's
// coefficients, a model's right-hand side), whose pages are obtained and first touched by
// all the host's threads at once, in transparent huge pages where the kernel gives them.
//
// Why not std::vector: a vector's value-initialisation touches every page from one thread,
// and on the lent GPU hosts the first touch of fresh memory costs about 0.65 s a GiB that way
// (the kernel faults and clears each 4 KiB page), against 0.05 s from 16 threads and 0.03 s
// from 16 threads in huge pages (measured with a first-touch probe on an H100 host). A
// 384^3 grid model touches about 4 GiB before its first iteration.
//
// The array has one size for its lifetime (no growth, so no capacity whose stale contents
// could reappear); it is copied in parallel too, and converts to a span for every kernel.
#include <complex>
#include <cstddef>
#include <cstring>
#include <span>
#include <type_traits>
#include <utility>

namespace solvent {

namespace host_memory {
// `bytes` of zeroed host memory (std::bad_alloc where there is none); null for 0 bytes.
void* allocate_zeroed(std::size_t bytes);
void release(void* p, std::size_t bytes) noexcept;
// dst[0, bytes) = src[0, bytes), in parallel over the host's threads.
void copy(void* dst, const void* src, std::size_t bytes) noexcept;
// Asks for huge pages over [p, p + bytes) and faults its pages in from all threads, leaving
// the contents as they are: for memory another allocator handed out (the solvent command's
// operator new does it for every large block).
void prefault(void* p, std::size_t bytes) noexcept;
}  // namespace host_memory

template <class T>
class HostArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "HostArray holds plain numbers");

 public:
  using value_type = T;

  HostArray() = default;
  // n zeros (T{} of a number is all zero bits).
  explicit HostArray(std::size_t n)
      : data_(static_cast<T*>(host_memory::allocate_zeroed(n * sizeof(T)))), size_(n) {}
  explicit HostArray(std::span<const T> values) : HostArray(values.size()) {
    host_memory::copy(data_, values.data(), size_ * sizeof(T));
  }
  HostArray(const HostArray& other) : HostArray(std::span<const T>(other)) {}
  HostArray(HostArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  HostArray& operator=(HostArray other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~HostArray() { host_memory::release(data_, size_ * sizeof(T)); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  operator std::span<T>() { return {data_, size_}; }
  operator std::span<const T>() const { return {data_, size_}; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace solvent
