#pragma once
// The seven coefficients of the forward-Euler scheme for n (Darbyshire, eq. 4, after
// Anderson & Chaplain 1998):
//
//   n' = P0 n + P1 n(x+h) + P2 n(x-h) + P3 n(y+h) + P4 n(y-h) + P5 n(z+h) + P6 n(z-h)
//
//   P0 = 1 - 6kD/h^2 + k alpha chi / (4h^2 (1 + alpha c)) [(dX c)^2 + (dY c)^2 + (dZ c)^2]
//          - k chi / h^2 [sum of the 6 neighbours of c - 6c] - k rho / h^2 [same for f]
//   P1, P2 = kD/h^2 -+ k/(4h^2) [chi dX c + rho dX f]   (y: P3, P4; z: P5, P6)
//
// with dX c = c(x+h) - c(x-h) and chi = chi0 / (1 + alpha c). P1 multiplies the value at
// x+h, so it is the weight of a cell moving towards -x; P2 the weight of moving to +x.
// (Pairing P1 with n(x-h) instead would reverse the taxis; the paper's eq. 4 and the
// derivation from -div(chi n grad c) fix the pairing used here.) The same coefficients,
// evaluated at a tip's node, are its movement probabilities.
#include <solvent/host_device.hpp>
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

// The forward-Euler value of n at a node from its stencil.
SOLVENT_HD inline double updated_density(const Coefficients& k, const Stencil& n) {
  return k.P[0] * n.v[0] + k.P[1] * n.v[2] + k.P[2] * n.v[1] + k.P[3] * n.v[4] + k.P[4] * n.v[3] +
         k.P[5] * n.v[6] + k.P[6] * n.v[5];
}

// The largest stable k at one node, for the frozen-coefficient scheme: P0 >= 0
// (k A <= 1, A the rate in P0 = 1 - k A) and the forward-time central-space condition of
// a drift-diffusion equation, k |v|^2 <= 2 D with v = chi grad c + rho grad f.
struct StepLimit {
  double centre;  // from P0 >= 0
  double drift;   // from k |v|^2 <= 2 D
};

inline StepLimit step_limit(const Parameters& p, const Stencil& c, const Stencil& f) {
  // Coefficients are linear in k: evaluate them at k = 1 and read the rates off.
  const Coefficients unit = coefficients(scheme_constants(p, 1.0), c, f);
  const double rate = 1.0 - unit.P[0];
  double v2 = 0.0;
  for (int a = 0; a < 3; ++a) {
    // At k = 1, P_{+a} - P_{-a} = (chi dA c + rho dA f) / (2 h^2) = v_a / h.
    const double v = (unit.P[2 + 2 * a] - unit.P[1 + 2 * a]) * p.h;
    v2 += v * v;
  }
  const double inf = 1.0e300;
  return {rate > 0.0 ? 1.0 / rate : inf, v2 > 0.0 ? 2.0 * p.D / v2 : inf};
}

}  // namespace solvent::angiogenesis_3d
