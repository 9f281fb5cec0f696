#include "cuda/device_diagonal.hpp"

#include "src/diagonal_scaling.hpp"

#include <solvent/cuda.hpp>
#include <solvent/device_scalar.cuh>
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

DeviceDiagonal::~DeviceDiagonal() {
  if (inverse_ != nullptr) cudaFree(inverse_);
}

template <class T>
void DeviceDiagonal::upload(const std::vector<T>& inverse) {
  const std::size_t bytes = inverse.size() * sizeof(T);
  if (bytes != bytes_) {
    if (inverse_ != nullptr) cudaFree(inverse_);
    inverse_ = nullptr;
    bytes_ = 0;
    if (bytes > 0) cuda::check(cudaMalloc(&inverse_, bytes), kPlugin, "cudaMalloc");
    bytes_ = bytes;
  }
  n_ = inverse.size();
  if (bytes > 0)
    cuda::check(cudaMemcpy(inverse_, inverse.data(), bytes, cudaMemcpyHostToDevice), kPlugin,
                "cudaMemcpy of the inverse diagonal");
}

template <class T>
void DeviceDiagonal::apply(const T* r, T* z) const {
  if (n_ == 0) return;
  const auto n = static_cast<std::int64_t>(n_);
  const auto blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  scale_kernel<<<blocks, kBlock>>>(n, static_cast<const cuda::device_t<T>*>(inverse_),
                                   cuda::to_device(r), cuda::to_device(z));
  cuda::check_launch(kPlugin, "scale_kernel");
}

template void DeviceDiagonal::upload<double>(const std::vector<double>&);
template void DeviceDiagonal::upload<complex>(const std::vector<complex>&);
template void DeviceDiagonal::apply<double>(const double*, double*) const;
template void DeviceDiagonal::apply<complex>(const complex*, complex*) const;

}  // namespace solvent::jacobi
