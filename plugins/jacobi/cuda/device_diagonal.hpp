#pragma once
// The device side of jacobi-cuda: the inverse diagonal resident in device memory, and
// z = D^{-1} r on device vectors. No CUDA types here, so the plugin's C++ stays out of nvcc.
#include <solvent/device/device_array.hpp>

#include <cstddef>
#include <vector>

namespace solvent::jacobi {

class DeviceDiagonal {
 public:
  // Copies `inverse` to the device, keeping the allocation when the byte count is unchanged
  // (a refresh of the same operator). Throws SolverError on a CUDA failure.
  template <class T>
  void upload(const std::vector<T>& inverse);

  // z = inverse .* r for device vectors of the uploaded length: one kernel on the default
  // stream, asynchronous to the host like every other kernel of a solve. r and z may be the
  // same vector.
  template <class T>
  void apply(const T* r, T* z) const;

 private:
  solvent::cuda::DeviceArray<std::byte> inverse_{0, "jacobi-cuda"};  // n_ scalars
  std::size_t n_ = 0;
};

}  // namespace solvent::jacobi
