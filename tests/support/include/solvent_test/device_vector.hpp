#pragma once
// Vectors in device memory for the CUDA tests of plugins that work on device pointers, filled
// from and read back to the host: Solvent's device array with the two copies a test makes.
// No CUDA types here, so the tests stay plain C++.
#include <solvent/device/device_array.hpp>

#include <span>
#include <vector>

namespace solvent::test {

template <class T>
class DeviceVector {
 public:
  explicit DeviceVector(const std::vector<T>& host)
      : device_(host.data(), host.size(), "device test vector") {}
  std::span<T> span() { return {device_.data(), device_.size()}; }
  std::vector<T> download() const {
    std::vector<T> host(device_.size());
    device_.download(host.data(), host.size());
    return host;
  }

 private:
  cuda::DeviceArray<T> device_;
};

}  // namespace solvent::test
