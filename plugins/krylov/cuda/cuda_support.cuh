#pragma once
// What the Krylov .cu files share: error checks, the device scalar type that stands for
// std::complex<double> (solvent/device/device_scalar.cuh), warp shuffles of either scalar, and
// launch shapes.
#include <solvent/device/cuda.hpp>
#include <solvent/device/device_scalar.cuh>
#include <solvent/errors.hpp>
#include <solvent/scalar.hpp>

#include <cuda_runtime.h>
#include <cuda/std/complex>

#include <cstdint>
#include <string>

namespace solvent::krylov::device {

// The kernels do not know which of the four plugins launched them; the solver adds its name.
inline void check(cudaError_t e, const char* what) { solvent::cuda::check(e, "CUDA", what); }
inline void check_launch(const char* kernel) { solvent::cuda::check_launch("CUDA", kernel); }

// The kernels' scalar for a host scalar: the SDK's, as every CUDA plugin uses it.
using solvent::cuda::device_t;
using solvent::cuda::to_device;

__device__ inline double shuffle_down(double v, int offset, int width) {
  return __shfl_down_sync(0xffffffffu, v, offset, width);
}
__device__ inline ::cuda::std::complex<double> shuffle_down(::cuda::std::complex<double> v,
                                                            int offset, int width) {
  return {__shfl_down_sync(0xffffffffu, v.real(), offset, width),
          __shfl_down_sync(0xffffffffu, v.imag(), offset, width)};
}

inline constexpr int block_size = 256;

inline unsigned blocks_for(std::int64_t threads) {
  return static_cast<unsigned>((threads + block_size - 1) / block_size);
}

}  // namespace solvent::krylov::device
