#include "src/state_checks.hpp"

#include <fmt/format.h>

#include <cmath>

namespace solvent::imex {

void require_finite(std::span<const double> u, const FieldLayout& layout, std::int64_t step,
                    double t, const char* integrator, const char* what) {
  const std::size_t m = layout.points();
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (std::isfinite(u[i])) continue;
    const std::size_t c = m ? i / m : 0, p = m ? i % m : i;
    throw DivergenceError(fmt::format(
        "{}: {} became non-finite at step {} (t = {:.6g}): {} = {} at x = {:.6g} (grid "
        "point {}); the explicit step is probably unstable — reduce dt. Output up to step {} is "
        "kept.",
        integrator, what, step, t, c < layout.components.size() ? layout.components[c] : "?", u[i],
        p < layout.coordinates.size() ? layout.coordinates[p] : 0.0, p, step - 1));
  }
}

}  // namespace solvent::imex
