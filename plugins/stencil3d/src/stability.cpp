#include "src/stability.hpp"

#include "src/field_update.hpp"

#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <algorithm>

namespace solvent::stencil3d {

StabilityLimit stability_limit(const SimulationState& s) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  double centre = 1e300, drift = 1e300;
#pragma omp parallel for collapse(2) reduction(min : centre, drift)
  for (std::int32_t k = 0; k < g.nz; ++k)
    for (std::int32_t j = 0; j < g.ny; ++j)
      for (std::int32_t i = 0; i < g.nx; ++i) {
        const auto nb = solvent::angiogenesis_3d::neighbours(g, i, j, k);
        const auto lim = solvent::angiogenesis_3d::step_limit(s.p, gather(s.c.data(), nb),
                                                              gather(s.f.data(), nb));
        centre = std::min(centre, lim.centre);
        drift = std::min(drift, lim.drift);
      }
  if (centre <= drift) return {centre, "P0 >= 0 (diffusion and taxis on the centre coefficient)"};
  return {drift, "k |chi grad c + rho grad f|^2 <= 2 D (drift against diffusion)"};
}

}  // namespace solvent::stencil3d
