#include "run/state_guard.hpp"

#include <solvent/errors.hpp>
#include <solvent/operator.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace solvent {

void StateGuard::on_start(const FieldLayout& layout) {
  layout_ = layout;
  ranges_ = model_.imex() ? model_.imex()->ranges() : std::vector<Range>{};
  next_.on_start(layout);
}

void StateGuard::on_step(const StepInfo& info, std::span<const double> u,
                         std::span<const Observable> observables) {
  auto fail = [&](std::size_t i, const std::string& why) {
    throw DivergenceError(fmt::format(
        "the state of step {} (t = {:.6g}) {}: {}; output up to step {} is kept", info.step,
        info.t, why, describe_entry(layout_, u, i), info.step - 1));
  };
  if (const auto i = first_non_finite(u); i < u.size()) fail(i, "is not finite");
  const std::size_t m = layout_.points();
  if (u.size() == layout_.size() && ranges_.size() == layout_.components.size()) {
    for (std::size_t c = 0; c < layout_.components.size(); ++c) {
      const auto field = u.subspan(c * m, m);
      double scale = 0.0;
      for (double v : field) scale = std::max(scale, std::abs(v));
      // Rounding may leave -1e-17 where the exact value is 0: not a range violation.
      const double slack = 1e-12 * scale;
      const auto& r = ranges_[c];
      for (std::size_t p = 0; p < m; ++p) {
        if (field[p] < r.lower - slack)
          fail(c * m + p, fmt::format("left the range of {} (below {:g})", layout_.components[c],
                                      r.lower));
        if (field[p] > r.upper + slack)
          fail(c * m + p, fmt::format("left the range of {} (above {:g})", layout_.components[c],
                                      r.upper));
      }
    }
  }
  next_.on_step(info, u, observables);
}

}  // namespace solvent
