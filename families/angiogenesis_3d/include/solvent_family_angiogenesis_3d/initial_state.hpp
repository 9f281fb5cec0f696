#pragma once
// Initial fields and tip positions (host only: the integrator builds the state on the host
// and uploads it, so std::exp is evaluated once, by one library, on every path).
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace solvent::angiogenesis_3d {

struct InitialValues {
  double f, c;
};

inline InitialValues initial_values(const Parameters& p, double x, double y, double z) {
  double d2;
  if (p.tumour == Tumour::Planar) {
    d2 = (p.tumour_x - x) * (p.tumour_x - x);
  } else {
    const double dx = x - p.tumour_centre[0], dy = y - p.tumour_centre[1],
                 dz = z - p.tumour_centre[2];
    d2 = dx * dx + dy * dy + dz * dz;
  }
  return {p.f_amplitude * std::exp(-x * x / p.f_width), std::exp(-d2 / p.c_width)};
}

// The node nearest to a point of the box.
inline std::int32_t nearest_node(const Parameters& p, double x, double y, double z) {
  const Grid g = grid_of(p);
  auto snap = [&](double v, std::int32_t n) {
    const auto i = static_cast<std::int32_t>(std::lround(v / p.h));
    return i < 0 ? 0 : (i > n - 1 ? n - 1 : i);
  };
  return g.index(snap(x, g.nx), snap(y, g.ny), snap(z, g.nz));
}

// The initial tips, one per (tip_y, tip_z) pair (fractions of the box), in y-major order;
// coinciding nodes are kept once.
inline std::vector<std::int32_t> initial_tip_nodes(const Parameters& p) {
  std::vector<std::int32_t> nodes;
  for (std::int64_t a = 0; a < p.tip_ny; ++a)
    for (std::int64_t b = 0; b < p.tip_nz; ++b) {
      const std::int32_t m =
          nearest_node(p, p.tip_x, p.tip_y[a] * (p.ny - 1) * p.h, p.tip_z[b] * (p.nz - 1) * p.h);
      bool seen = false;
      for (auto q : nodes) seen = seen || q == m;
      if (!seen) nodes.push_back(m);
    }
  return nodes;
}

}  // namespace solvent::angiogenesis_3d
