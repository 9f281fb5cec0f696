#include <solvent/model.hpp>

#include <fmt/format.h>

namespace solvent {

namespace {
// Where grid point p lies: "x = 0.25" on one axis, "(x, y) = (0.25, 0.5)" on more (the first
// axis fastest).
std::string position(const FieldLayout& layout, std::size_t p) {
  std::string names, values;
  for (std::size_t d = 0; d < layout.axes.size(); ++d) {
    const auto& a = layout.axes[d];
    const std::size_t n = a.coordinates.size();
    if (d > 0) {
      names += ", ";
      values += ", ";
    }
    names += a.name;
    values += n ? fmt::format("{:.6g}", a.coordinates[p % n]) : std::string("?");
    if (n) p /= n;
  }
  if (layout.axes.size() == 1) return names + " = " + values;
  return "(" + names + ") = (" + values + ")";
}
}  // namespace

std::string describe_entry(const FieldLayout& layout, std::span<const double> u, std::size_t i) {
  const std::size_t m = layout.points();
  const std::size_t c = m ? i / m : 0, p = m ? i % m : i;
  return fmt::format("{} = {} at {} (grid point {})",
                     c < layout.components.size() ? layout.components[c] : "?", u[i],
                     position(layout, p), p);
}

}  // namespace solvent
