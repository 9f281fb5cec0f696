#pragma once
// The variational parameters of one MATM iteration, Sukhinov et al. eq. (5):
//   w~    = sqrt( (D w, w) / (D^-1 R2 w, R2 w) )
//   s^2   = 1 - (A0 w, w)^2 / ( (B^-1 A0 w, A0 w) (B w, w) )
//   k^2   = (B^-1 A1 w, A1 w) / (B^-1 A0 w, A0 w)
//   theta = (1 - sqrt(s^2 k^2 / (1 + k^2))) / (1 + k^2 (1 - s^2))
//   tau   = theta (A0 w, w) / (B^-1 A0 w, A0 w)
// from the inner products of the correction w. (B w, w) = (r, w) because B w = r, and
// (B^-1 z, z) = (D y, y) with (D + w R1) y = z because R2 = R1^T, so each B^-1 costs one
// sweep, not two.
#include <solvent/device/host_device.hpp>

#include <math.h>

namespace solvent::matm {

struct Dots {
  double d_w_w = 0.0;    // (D w, w)
  double r2_w = 0.0;     // (D^-1 R2 w, R2 w)
  double a0_w_w = 0.0;   // (A0 w, w)
  double b_w_w = 0.0;    // (B w, w) = (r, w)
  double binv_a0 = 0.0;  // (B^-1 A0 w, A0 w)
  double binv_a1 = 0.0;  // (B^-1 A1 w, A1 w); 0 when self-adjoint
};

struct StepParameters {
  double omega = 0.0;  // the w that built this iteration's B
  double omega_next = 0.0;
  double s2 = 0.0;
  double k2 = 0.0;
  double theta = 1.0;
  double tau = 0.0;
  bool valid = false;  // false: an inner product was non-finite or non-positive
};

// False for NaN and infinity too.
SOLVENT_HD inline bool positive_finite(double v) { return v > 0.0 && v <= 1.7976931348623157e308; }

SOLVENT_HD inline StepParameters iteration_parameters(const Dots& d, double omega) {
  StepParameters p;
  p.omega = omega;
  p.omega_next = omega;
  if (!positive_finite(d.d_w_w) || !positive_finite(d.a0_w_w) || !positive_finite(d.b_w_w) ||
      !positive_finite(d.binv_a0) || !(d.binv_a1 >= 0.0 && d.binv_a1 <= 1.7976931348623157e308))
    return p;
  // Rounding can push s^2 just outside [0, 1] when B is very close to A0.
  double s2 = 1.0 - d.a0_w_w * d.a0_w_w / (d.binv_a0 * d.b_w_w);
  s2 = s2 < 0.0 ? 0.0 : (s2 > 1.0 ? 1.0 : s2);
  const double k2 = d.binv_a1 / d.binv_a0;
  p.s2 = s2;
  p.k2 = k2;
  p.theta = (1.0 - sqrt(s2 * k2 / (1.0 + k2))) / (1.0 + k2 * (1.0 - s2));
  p.tau = p.theta * d.a0_w_w / d.binv_a0;
  // A w with R2 w = 0 (a w in the null space of R2) gives no estimate: keep the old w.
  if (positive_finite(d.r2_w)) p.omega_next = sqrt(d.d_w_w / d.r2_w);
  p.valid = true;
  return p;
}

}  // namespace solvent::matm
