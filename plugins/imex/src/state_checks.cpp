#include "src/state_checks.hpp"

#include <fmt/format.h>

namespace solvent::imex {

void require_finite(std::span<const double> u, const FieldLayout& layout, std::int64_t step,
                    double t, const char* integrator, const char* what) {
  const std::size_t i = first_non_finite(u);
  if (i == u.size()) return;
  throw DivergenceError(fmt::format(
      "{}: {} became non-finite at step {} (t = {:.6g}): {}; the explicit step is probably "
      "unstable — reduce dt. Output up to step {} is kept.",
      integrator, what, step, t, describe_entry(layout, u, i), step - 1));
}

}  // namespace solvent::imex
