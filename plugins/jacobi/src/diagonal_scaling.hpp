#pragma once
// z_i = r_i / d_i, applied as r_i times the stored 1 / d_i: one definition for the CPU loop
// (Z = double or std::complex<double>) and the CUDA kernel (Z = double or
// cuda::std::complex<double>). The complex product is spelt out in real arithmetic because
// the two library operator* differ (the host's adds C99 inf/nan recovery); with the kernel
// compiled --fmad=false, both back ends round alike.
#include <solvent/device/host_device.hpp>

namespace solvent::jacobi {

SOLVENT_HD inline double scaled(double inverse, double r) { return inverse * r; }

template <class Z>
SOLVENT_HD Z scaled(const Z& inverse, const Z& r) {
  return Z(inverse.real() * r.real() - inverse.imag() * r.imag(),
           inverse.real() * r.imag() + inverse.imag() * r.real());
}

}  // namespace solvent::jacobi
