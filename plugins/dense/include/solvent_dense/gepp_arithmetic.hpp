#pragma once
// The arithmetic of one elimination update and of pivot selection, written once for the
// CUDA kernels, the host back substitution and gepp-cpu, so all round the same way and rank
// a NaN pivot alike. The complex overloads are the host's alone (gepp-cuda solves real
// systems only).
#include <solvent/device/host_device.hpp>
#include <solvent/scalar.hpp>

#include <cmath>

namespace solvent::dense {

// The multiplier l_ik = a_ik / a_kk of De Luca et al. (kept unscaled in the matrix, divided on
// use).
SOLVENT_HD inline double multiplier(double a_ik, double a_kk) { return a_ik / a_kk; }

// a_ij - l * a_kj: the elimination update, also the substitution update.
SOLVENT_HD inline double eliminate(double a_ij, double l, double a_kj) { return a_ij - l * a_kj; }

// The key partial pivoting maximises: |a_ik|, with NaN ranked above everything so that a
// non-finite column is chosen as pivot and reported instead of silently skipped.
SOLVENT_HD inline double pivot_magnitude(double a_ik) {
  return std::isnan(a_ik) ? INFINITY : std::fabs(a_ik);
}

SOLVENT_HD inline bool usable_pivot(double a_kk) { return a_kk != 0.0 && std::isfinite(a_kk); }

inline complex multiplier(const complex& a_ik, const complex& a_kk) { return a_ik / a_kk; }
inline complex eliminate(const complex& a_ij, const complex& l, const complex& a_kj) {
  return a_ij - l * a_kj;
}
inline double pivot_magnitude(const complex& a_ik) {
  return std::isnan(a_ik.real()) || std::isnan(a_ik.imag()) ? INFINITY : std::abs(a_ik);
}
inline bool usable_pivot(const complex& a_kk) {
  return a_kk != 0.0 && std::isfinite(a_kk.real()) && std::isfinite(a_kk.imag());
}

}  // namespace solvent::dense
