#pragma once
// The explicit part N(u) of the 1D model (docs/models/angiogenesis-1d.md), point by point:
// the taxis flux J = C (a2 I_x - a1 F_x - a3 T_x / (1 + a4 T)) at the midpoints i + 1/2,
// differenced conservatively, k1 C (1 - C) for C, and the reactions of P, I and F. The model's
// own loop (one member, each flux computed once and carried to the next point) and the
// batched engines (a CPU loop over members, one CUDA thread per member and point, which
// computes both fluxes of its point) call these same functions, so every member's explicit
// term has the same bits on every path. Nothing here includes a CUDA header.
#include <solvent/device/host_device.hpp>
#include <solvent_family_angiogenesis_1d/coefficients.hpp>

#include <cstddef>

namespace solvent::angiogenesis_1d {

// The flux at i + 1/2 from C, I and F at i and i + 1; taf_flux = T_x / (1 + a4 T) there.
SOLVENT_HD inline double taxis_flux(const Coefficients& k, double h, double taf_flux, double c0,
                                    double c1, double in0, double in1, double f0, double f1) {
  const double cm = 0.5 * (c0 + c1);
  return cm * (k.a2 * (in1 - in0) / h - k.a1 * (f1 - f0) / h - k.a3 * taf_flux);
}

// dC/dt's explicit part at point i of m from the fluxes at i - 1/2 (left) and i + 1/2 (right).
// The Neumann ghost points make the boundary fluxes antisymmetric: at i = 0 the left flux is
// minus the right one, at i = m - 1 the right is minus the left (the one not used is
// ignored), so the trapezoid-rule mass of C changes only by growth.
SOLVENT_HD inline double c_rate(const Coefficients& k, double h, std::size_t i, std::size_t m,
                                double left, double right, double c) {
  const double growth = k.k1 * c * (1.0 - c);
  if (i == 0) return 2.0 * right / h + growth;
  if (i + 1 == m) return -2.0 * left / h + growth;
  return (right - left) / h + growth;
}

struct Reactions {
  double p, i, f;
};

// The explicit parts of dP/dt, dI/dt and dF/dt at one point; taf = T there.
SOLVENT_HD inline Reactions reactions(const Coefficients& k, double taf, double p, double in,
                                      double f) {
  const double binding = k.k3 * p * in;
  return {k.k5 * taf - binding, -binding, -k.k2 * p * f};
}

// One member's state, species-major [C; P; I; F] of m points, entry e at u[e * stride] (1 for
// a member stored alone, B for B members interleaved member-fastest on a GPU).
struct StridedState {
  const double* u;
  std::size_t m, stride;
  SOLVENT_HD double at(std::size_t species, std::size_t i) const {
    return u[(species * m + i) * stride];
  }
};

struct Rates {
  double c, p, i, f;
};

// N(u) at point i: taf[i * stride] = T(x_i), taf_flux[i * stride] = T_x / (1 + a4 T) at
// i + 1/2 (the member's own arrays, strided like its state).
SOLVENT_HD inline Rates explicit_rates(const Coefficients& k, double h, const StridedState& u,
                                       const double* taf, const double* taf_flux, std::size_t i) {
  constexpr std::size_t C = 0, P = 1, I = 2, F = 3;
  const std::size_t m = u.m, s = u.stride;
  auto flux = [&](std::size_t j) {  // at j + 1/2
    return taxis_flux(k, h, taf_flux[j * s], u.at(C, j), u.at(C, j + 1), u.at(I, j), u.at(I, j + 1),
                      u.at(F, j), u.at(F, j + 1));
  };
  const double left = i > 0 ? flux(i - 1) : 0.0;
  const double right = i + 1 < m ? flux(i) : 0.0;
  const Reactions r = reactions(k, taf[i * s], u.at(P, i), u.at(I, i), u.at(F, i));
  return {c_rate(k, h, i, m, left, right, u.at(C, i)), r.p, r.i, r.f};
}

}  // namespace solvent::angiogenesis_1d
