#include "src/state_checks.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace solvent::imex {

namespace {

// Where grid point p of the layout lies: "x = 0.25" on one axis, "(x, y) = (0.25, 0.5)" on
// more (the first axis fastest).
std::string position(const FieldLayout& layout, std::size_t p) {
  std::string names, values;
  for (std::size_t d = 0; d < layout.axes.size(); ++d) {
    const auto& a = layout.axes[d];
    const std::size_t n = a.coordinates.size();
    const char* sep = d ? ", " : "";
    names += sep + a.name;
    values += sep + (n ? fmt::format("{:.6g}", a.coordinates[p % n]) : std::string("?"));
    if (n) p /= n;
  }
  if (layout.axes.size() == 1) return names + " = " + values;
  return "(" + names + ") = (" + values + ")";
}

}  // namespace

void require_finite(std::span<const double> u, const FieldLayout& layout, std::int64_t step,
                    double t, const char* integrator, const char* what) {
  const std::size_t m = layout.points();
  for (std::size_t i = 0; i < u.size(); ++i) {
    if (std::isfinite(u[i])) continue;
    const std::size_t c = m ? i / m : 0, p = m ? i % m : i;
    throw DivergenceError(fmt::format(
        "{}: {} became non-finite at step {} (t = {:.6g}): {} = {} at {} (grid point {}); the "
        "explicit step is probably unstable — reduce dt. Output up to step {} is kept.",
        integrator, what, step, t, c < layout.components.size() ? layout.components[c] : "?", u[i],
        position(layout, p), p, step - 1));
  }
}

}  // namespace solvent::imex
