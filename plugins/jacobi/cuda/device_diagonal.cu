#include "cuda/device_diagonal.hpp"

#include "src/diagonal_scaling.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_scalar.cuh>
#include <solvent/scalar.hpp>

#include <cuda_runtime.h>

#include <cstdint>

namespace solvent::jacobi {
namespace {

constexpr const char* kPlugin = "jacobi-cuda";
constexpr int kBlock = 256;

// No __restrict__ on r and z: they may be the same vector.
template <class Z>
__global__ void scale_kernel(std::int64_t n, const Z* __restrict__ inverse, const Z* r, Z* z) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i < n) z[i] = scaled(inverse[i], r[i]);
}

}  // namespace

template <class T>
void DeviceDiagonal::upload(const std::vector<T>& inverse) {
  const std::size_t bytes = inverse.size() * sizeof(T);
  inverse_.resize(bytes);
  n_ = inverse.size();
  inverse_.upload(reinterpret_cast<const std::byte*>(inverse.data()), bytes);
}

template <class T>
void DeviceDiagonal::apply(const T* r, T* z) const {
  if (n_ == 0) return;
  const auto n = static_cast<std::int64_t>(n_);
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  scale_kernel<<<blocks, kBlock>>>(n, reinterpret_cast<const cuda::device_t<T>*>(inverse_.data()),
                                   cuda::to_device(r), cuda::to_device(z));
  cuda::check_launch(kPlugin, "scale_kernel");
}

template void DeviceDiagonal::upload<double>(const std::vector<double>&);
template void DeviceDiagonal::upload<complex>(const std::vector<complex>&);
template void DeviceDiagonal::apply<double>(const double*, double*) const;
template void DeviceDiagonal::apply<complex>(const complex*, complex*) const;

}  // namespace solvent::jacobi
