#pragma once
// The parameter block of the Anderson–Chaplain (1998) hybrid angiogenesis model in 3D,
// shared between the model plugin (which fills it from TOML) and the explicit stencil
// integrator (which copies it to the device). Every member is 8 bytes wide, so the block
// has no padding and its bytes identify a parameter set in a checkpoint.
#include <cstdint>

namespace solvent {
struct GridBlocks;
}

namespace solvent::angiogenesis_3d {

// The model offers its Parameters as ParametersFamily (solvent::family, model.hpp) and,
// over several MPI ranks, its `const solvent::GridBlocks` as BlocksFamily: how the grid is
// cut into one block per rank (its `split` key); on one rank it does not offer them. Not
// part of Parameters, whose bytes a checkpoint compares: a run may resume on another
// number of ranks.
struct Parameters;
struct ParametersFamily {
  using type = const Parameters;
  static constexpr const char* name = "angiogenesis-3d/1";
};
struct BlocksFamily {
  using type = const GridBlocks;
  static constexpr const char* name = "angiogenesis-3d/blocks/1";
};

inline constexpr int max_initial_tips = 64;
inline constexpr int branch_table_size = 5;  // probability bands of the TAF concentration

enum class Tumour : std::int64_t { Planar = 0, Spherical = 1 };

// Hybrid: the discrete tips are the cells, f and c change on vessel nodes only. Continuous:
// Anderson and Chaplain's continuous n, f, c system at every node, no tips.
enum class Mode : std::int64_t { Hybrid = 0, Continuous = 1 };

struct Parameters {
  // Grid: nx x ny x nz nodes, spacing h = 1 / (nx - 1) in every direction, so the box is
  // [0, 1] x [0, (ny-1) h] x [0, (nz-1) h]. Node index m = i + nx (j + ny k).
  std::int64_t nx, ny, nz;
  double h;

  // n_t = D lap n - div(chi(c) n grad c) - rho div(n grad f),  chi(c) = chi0 / (1 + alpha c)
  // f_t = beta n - gamma n f,  c_t = -eta n c   (n = 1 on vessel nodes, 0 elsewhere: f
  // and c change on vessel nodes only; the n-equation supplies the tips' movement
  // probabilities)
  double D, chi0, alpha, rho, beta, gamma, eta;

  // Initial conditions: c = exp(-d^2 / c_width) with d the distance to the tumour (the
  // plane x = tumour_x, or the point tumour_centre, in box coordinates);
  // f = f_amplitude exp(-x^2 / f_width). The endothelial cells are the tips and the
  // vessel nodes they leave behind (no continuous density: see the integrator).
  Tumour tumour;
  double tumour_x;
  double tumour_centre[3];
  double c_width, f_amplitude, f_width;

  // Initial tips at x = tip_x and every (tip_y[a], tip_z[b]) pair; y and z are fractions
  // of the box's extent, so 0.5 is mid-box on any grid.
  std::int64_t tip_ny, tip_nz;
  double tip_x;
  double tip_y[max_initial_tips];
  double tip_z[max_initial_tips];

  // Branching: a tip whose age (time since it appeared or last branched) exceeds
  // branch_age, whose node has a free neighbour and whose
  // neighbourhood (cube of half-width density_radius nodes) holds more than
  // density_factor / c vessel nodes branches with the probability of the band of c:
  // branch_probability[b] for c below c_threshold[b], the last entry above them all.
  double branch_age;
  double density_factor;
  std::int64_t density_radius;
  double c_threshold[branch_table_size - 1];
  double branch_probability[branch_table_size];
  std::int64_t max_tips;

  // Anastomosis: a tip that moves onto another sprout (or onto a node another tip takes
  // in the same step) fuses there and stops; when 0, it moves on through.
  std::int64_t anastomosis;

  // The run ends early once a tip reaches x >= stop_x (a value above 1 never stops it).
  double stop_x;

  // Continuous mode: n, f and c advance at every node by the forward-Euler scheme whose
  // coefficients are the tips' probabilities, from n = exp(-x^2 / n_width) at the parent
  // vessel (docs/models/angiogenesis-3d.md, "The continuous mode").
  Mode mode;
  double n_width;
};

}  // namespace solvent::angiogenesis_3d
