#pragma once
// Vectors in device memory for the CUDA tests of plugins that work on device pointers, filled from and read back to
// the host. No CUDA types here, so the tests stay plain C++.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace solvent::test {

void* device_allocate(std::size_t bytes);
void device_free(void* p) noexcept;
void copy_to_device(void* to, const void* from, std::size_t bytes);
void copy_to_host(void* to, const void* from, std::size_t bytes);

template <class T>
class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<T>& host)
      : n_(host.size()), p_(static_cast<T*>(device_allocate(n_ * sizeof(T)))) {
    copy_to_device(p_.get(), host.data(), n_ * sizeof(T));
  }
  std::span<T> span() { return {p_.get(), n_}; }
  std::vector<T> download() const {
    std::vector<T> host(n_);
    copy_to_host(host.data(), p_.get(), n_ * sizeof(T));
    return host;
  }

 private:
  struct Free {
    void operator()(T* p) const noexcept { device_free(p); }
  };
  std::size_t n_;
  std::unique_ptr<T, Free> p_;
};

}  // namespace solvent::test
