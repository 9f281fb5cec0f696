#pragma once
// The discrete rules of a tip cell: where it moves and how likely it is to branch.
#include <solvent/device/host_device.hpp>
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

// How many of the seven coefficients lie outside [0, 1] (a NaN counts too). Where none
// does, they are the probabilities of Anderson and Chaplain's random walk; a negative one
// (strong taxis against diffusion, or P0 < 0 from too large a k) is clipped by
// choose_direction, and the share of such steps says how far a run strays from the model.
SOLVENT_HD inline int invalid_probabilities(const Coefficients& k) {
  int bad = 0;
  for (int d = 0; d < 7; ++d) bad += (k.P[d] >= 0.0 && k.P[d] <= 1.0) ? 0 : 1;
  return bad;
}

// The branching probability of the band that the TAF concentration c falls in.
SOLVENT_HD inline double branch_probability(const Parameters& p, double c) {
  for (int b = 0; b < branch_table_size - 1; ++b)
    if (c < p.c_threshold[b]) return p.branch_probability[b];
  return p.branch_probability[branch_table_size - 1];
}

}  // namespace solvent::angiogenesis_3d
