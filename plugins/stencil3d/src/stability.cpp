#include "src/stability.hpp"

#include "src/field_update.hpp"

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/coefficients.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
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
  // The uptake runs at rate max(gamma, eta) n: n = 1 on the vessel nodes of the hybrid mode,
  // the largest n in the continuous one.
  const bool continuous = s.p.mode == solvent::angiogenesis_3d::Mode::Continuous;
  const double n_max = continuous ? *std::max_element(s.n.begin(), s.n.end()) : 1.0;
  const double uptake_rate = std::max(s.p.gamma, s.p.eta) * n_max;
  const double uptake = uptake_rate > 0.0 ? 1.0 / uptake_rate : 1e300;
  if (centre <= uptake)
    return {centre, continuous ? "P0 >= 0 (the weight of n at its own node, from diffusion and "
                                 "taxis)"
                               : "P0 >= 0 (the stay probability of a tip, from diffusion and "
                                 "taxis)"};
  return {uptake, continuous ? "k max(gamma, eta) max(n) <= 1 (uptake of f and c by the cells)"
                             : "k max(gamma, eta) <= 1 (vessel uptake of f and c)"};
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
    const char* cause;
  };
  const char* uptake = s.n.empty()
                           ? "the vessel uptake is unstable (k max(gamma, eta) > 1?) — reduce dt"
                           : "the uptake is unstable (k max(gamma, eta) max(n) > 1?) — reduce dt";
  // n leaves [0, inf) where a weight of the update is negative: P0 (dt too large) or a move
  // weight, where taxis outweighs diffusion over one cell, whatever dt.
  const char* cells =
      "a weight of the n update is negative (P0 < 0: reduce dt; P1..P6 < 0 where taxis "
      "outweighs diffusion over a cell: refine h)";
  for (const Field& field :
       {Field{"c", s.c, 0.0, 1.0, uptake}, Field{"f", s.f, 0.0, f_max, uptake},
        Field{"n", s.n, 0.0, std::numeric_limits<double>::infinity(), cells}})
    for (std::size_t m = 0; m < field.v.size(); ++m) {
      const double v = field.v[m];
      if (std::isfinite(v) && v >= field.lower - slack && v <= field.upper + slack) continue;
      std::int32_t i, j, k;
      g.coordinates(static_cast<std::int32_t>(m), i, j, k);
      throw solvent::DivergenceError(fmt::format(
          "explicit-stencil3d: at step {} (t = {:.6g}) {} = {:g} at node ({}, {}, {}) is {} "
          "[{:g}, {:g}]; {}",
          s.step, static_cast<double>(s.step) * s.dt, field.name, v, i, j, k,
          std::isfinite(v) ? "outside its range" : "not finite, range", field.lower,
          field.upper, field.cause));
    }
}

}  // namespace solvent::stencil3d
