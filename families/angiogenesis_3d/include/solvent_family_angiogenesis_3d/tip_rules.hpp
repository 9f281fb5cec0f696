#pragma once
// The discrete rules of a tip cell: where it moves and how likely it is to branch.
#include <solvent/host_device.hpp>
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

namespace solvent::angiogenesis_3d {

// Direction 0 stays; 1..6 move to -x, +x, -y, +y, -z, +z (the order of P1..P6).
// Negative coefficients are clipped to 0 and the rest renormalised; u is uniform in [0,1).
SOLVENT_HD inline int choose_direction(const Coefficients& k, double u) {
  double w[7];
  double total = 0.0;
  for (int d = 0; d < 7; ++d) {
    w[d] = k.P[d] > 0.0 ? k.P[d] : 0.0;
    total += w[d];
  }
  if (!(total > 0.0)) return 0;
  const double target = u * total;
  double upper = 0.0;
  for (int d = 0; d < 6; ++d) {
    upper += w[d];
    if (target < upper) return d;
  }
  return 6;
}

// The branching probability of the band that the TAF concentration c falls in.
SOLVENT_HD inline double branch_probability(const Parameters& p, double c) {
  for (int b = 0; b < branch_table_size - 1; ++b)
    if (c < p.c_threshold[b]) return p.branch_probability[b];
  return p.branch_probability[branch_table_size - 1];
}

}  // namespace solvent::angiogenesis_3d
