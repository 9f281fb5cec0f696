#include "src/stability.hpp"

#include "src/field_update.hpp"

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::stencil3d {

StabilityLimit stability_limit(const SimulationState& s, int threads) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  double centre = 1e300;
#ifdef _OPENMP
  const int team = threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
#endif
#pragma omp parallel for collapse(2) reduction(min : centre) num_threads(team)
  for (std::int32_t k = 0; k < g.nz; ++k)
    for (std::int32_t j = 0; j < g.ny; ++j)
      for (std::int32_t i = 0; i < g.nx; ++i) {
        const auto nb = solvent::angiogenesis_3d::neighbours(g, i, j, k);
        centre = std::min(centre, solvent::angiogenesis_3d::centre_step_limit(
                                      s.p, gather(s.c.data(), nb), gather(s.f.data(), nb)));
      }
  const double uptake_rate = std::max(s.p.gamma, s.p.eta);
  const double uptake = uptake_rate > 0.0 ? 1.0 / uptake_rate : 1e300;
  if (centre <= uptake)
    return {centre, "P0 >= 0 (the stay probability of a tip, from diffusion and taxis)"};
  return {uptake, "k max(gamma, eta) <= 1 (vessel uptake of f and c)"};
}

void check_fields(const SimulationState& s) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  // Rounding may leave a value an ulp outside a bound it tends to.
  const double slack = 1e-12;
  const double f_max = s.p.gamma > 0.0 ? std::max(s.p.f_amplitude, s.p.beta / s.p.gamma) : 1e300;
  struct Field {
    const char* name;
    const std::vector<double>& v;
    double lower, upper;
  };
  for (const Field& field : {Field{"c", s.c, 0.0, 1.0}, Field{"f", s.f, 0.0, f_max}})
    for (std::size_t m = 0; m < field.v.size(); ++m) {
      const double v = field.v[m];
      if (std::isfinite(v) && v >= field.lower - slack && v <= field.upper + slack) continue;
      std::int32_t i, j, k;
      g.coordinates(static_cast<std::int32_t>(m), i, j, k);
      throw solvent::DivergenceError(fmt::format(
          "explicit-stencil3d: at step {} (t = {:.6g}) {} = {:g} at node ({}, {}, {}) is {} "
          "[{:g}, {:g}]; the vessel uptake is unstable (k max(gamma, eta) > 1?) — reduce dt",
          s.step, static_cast<double>(s.step) * s.dt, field.name, v, i, j, k,
          std::isfinite(v) ? "outside its range" : "not finite, range", field.lower,
          field.upper));
    }
}

}  // namespace solvent::stencil3d
