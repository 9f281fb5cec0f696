#pragma once
// The seven coefficients of the forward-Euler discretisation of the n-equation (Darbyshire,
// eq. 4, after Anderson & Chaplain 1998):
//
//   n' = P0 n + P1 n(x+h) + P2 n(x-h) + P3 n(y+h) + P4 n(y-h) + P5 n(z+h) + P6 n(z-h)
//
//   P0 = 1 - 6kD/h^2 + k alpha chi / (4h^2 (1 + alpha c)) [(dX c)^2 + (dY c)^2 + (dZ c)^2]
//          - k chi / h^2 [sum of the 6 neighbours of c - 6c] - k rho / h^2 [same for f]
//   P1, P2 = kD/h^2 -+ k/(4h^2) [chi dX c + rho dX f]   (y: P3, P4; z: P5, P6)
//
// with dX c = c(x+h) - c(x-h) and chi = chi0 / (1 + alpha c). P1 multiplies the value at
// x+h, so it is the weight of a cell moving towards -x; P2 the weight of moving to +x.
// (Pairing P1 with n(x-h) instead would reverse the taxis; Darbyshire 2015's eq. 4 and the
// derivation from -div(chi n grad c) fix the pairing used here.) In the hybrid model these
// coefficients, evaluated at a tip's node, are only the tip's movement probabilities: no
// continuous n is advanced with them (docs/models/angiogenesis-3d.md, "What n is").
#include <solvent/device/host_device.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

namespace solvent::angiogenesis_3d {

// Per-run constants of the scheme, computed once on the host and used bit-for-bit
// identically by the CPU and CUDA paths.
struct SchemeConstants {
  double diffusion;  // k D / h^2
  double taxis;      // k / (4 h^2)
  double reaction;   // k / h^2
  double chi0, alpha, rho;
};

inline SchemeConstants scheme_constants(const Parameters& p, double k) {
  const double h2 = p.h * p.h;
  return {k * p.D / h2, k / (4.0 * h2), k / h2, p.chi0, p.alpha, p.rho};
}

// Values of a field on the stencil, in the order centre, x-, x+, y-, y+, z-, z+.
struct Stencil {
  double v[7];
};

struct Coefficients {
  double P[7];
};

SOLVENT_HD inline Coefficients coefficients(const SchemeConstants& s, const Stencil& c,
                                            const Stencil& f) {
  const double c0 = c.v[0];
  const double saturation = 1.0 / (1.0 + s.alpha * c0);  // one division per node
  const double chi = s.chi0 * saturation;
  const double dc[3] = {c.v[2] - c.v[1], c.v[4] - c.v[3], c.v[6] - c.v[5]};
  const double df[3] = {f.v[2] - f.v[1], f.v[4] - f.v[3], f.v[6] - f.v[5]};
  const double grad2 = dc[0] * dc[0] + dc[1] * dc[1] + dc[2] * dc[2];
  const double lap_c = (c.v[1] + c.v[2] + c.v[3] + c.v[4] + c.v[5] + c.v[6]) - 6.0 * c0;
  const double lap_f = (f.v[1] + f.v[2] + f.v[3] + f.v[4] + f.v[5] + f.v[6]) - 6.0 * f.v[0];
  Coefficients out;
  out.P[0] = 1.0 - 6.0 * s.diffusion + s.taxis * s.alpha * chi * saturation * grad2 -
             s.reaction * chi * lap_c - s.reaction * s.rho * lap_f;
  for (int a = 0; a < 3; ++a) {
    const double drift = s.taxis * (chi * dc[a] + s.rho * df[a]);
    out.P[1 + 2 * a] = s.diffusion - drift;
    out.P[2 + 2 * a] = s.diffusion + drift;
  }
  return out;
}

// The largest k at one node for which the stay probability P0 = 1 - k A is not negative
// (A the rate read off the coefficients at k = 1); infinite where A <= 0. It depends on c
// and f, so it moves as the vessels take them up.
inline double centre_step_limit(const Parameters& p, const Stencil& c, const Stencil& f) {
  const double rate = 1.0 - coefficients(scheme_constants(p, 1.0), c, f).P[0];
  return rate > 0.0 ? 1.0 / rate : 1.0e300;
}

}  // namespace solvent::angiogenesis_3d
