#pragma once
// CUDA only: include from .cu files, which nvcc compiles. The scalar a kernel uses for a
// host scalar, so that every CUDA plugin hands its vectors to kernels the same way.
//
// double stays double. std::complex<double> cannot be used in device code, so it stands as
// ::cuda::std::complex<double> (libcu++), which has the same size and layout: two doubles,
// the real part first. Its alignment is 16 bytes against std::complex's 8, so the pointers
// to_device reinterprets must be 16-byte aligned; cudaMalloc's are (256 bytes), and so is
// any offset of whole complex elements from one.
#if !defined(__CUDACC__)
#error "solvent/device/device_scalar.cuh is for .cu files: include it only where nvcc compiles"
#endif

#include <solvent/scalar.hpp>

#include <cuda/std/complex>

namespace solvent::cuda {

template <class T>
struct DeviceScalar {
  using type = T;
};
template <>
struct DeviceScalar<complex> {
  using type = ::cuda::std::complex<double>;
};
template <class T>
using device_t = typename DeviceScalar<T>::type;

static_assert(sizeof(device_t<complex>) == sizeof(complex));

// A vector (a device pointer) of host scalars as the kernel's scalar: the same memory.
template <class T>
device_t<T>* to_device(T* p) {
  return reinterpret_cast<device_t<T>*>(p);
}
template <class T>
const device_t<T>* to_device(const T* p) {
  return reinterpret_cast<const device_t<T>*>(p);
}

// A scalar argument, passed by value to a kernel.
inline double to_device(double a) { return a; }
inline ::cuda::std::complex<double> to_device(const complex& a) { return {a.real(), a.imag()}; }

}  // namespace solvent::cuda
