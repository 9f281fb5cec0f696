#include "vtk_writer.hpp"

#include <solvent/output.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace solvent {

namespace {

// A model computing x_i = x_0 + i h rounds differently from one accumulating x += h; both
// are the same uniform grid.
constexpr double uniform_tolerance = 1e-9;

// The spacing of an axis of evenly spaced, increasing coordinates, or none: VTK image data
// has a positive spacing. An axis of one point draws with any spacing.
std::optional<double> uniform_spacing(const std::vector<double>& c) {
  if (c.size() < 2) return 1.0;
  const double h = (c.back() - c.front()) / static_cast<double>(c.size() - 1);
  if (!(h > 0.0)) return std::nullopt;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (std::abs(c[i] - c[i - 1] - h) > uniform_tolerance * h) return std::nullopt;
  return h;
}

// Component and axis names come from models.
std::string xml_attribute(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// One line per row of the first axis, so the file reads like the grid it holds.
void append_values(std::string& out, std::span<const double> v, std::size_t per_line) {
  auto it = std::back_inserter(out);
  for (std::size_t i = 0; i < v.size(); ++i) {
    out += i == 0 ? "          " : i % per_line == 0 ? "\n          " : " ";
    fmt::format_to(it, "{:.17g}", v[i]);
  }
  if (!v.empty()) out += '\n';
}

void append_array(std::string& out, std::string_view name, std::span<const double> v,
                  std::size_t per_line) {
  out += "        <DataArray type=\"Float64\"";
  if (!name.empty()) out += fmt::format(" Name=\"{}\"", xml_attribute(name));
  out += " format=\"ascii\">\n";
  append_values(out, v, per_line);
  out += "        </DataArray>\n";
}

}  // namespace

void write_vtk_grid(const std::filesystem::path& stem, const FieldLayout& layout,
                    std::span<const double> u) {
  const auto& axes = layout.axes;
  std::optional<double> spacing[3] = {1.0, 1.0, 1.0};  // an absent third axis: one point
  bool uniform = true;
  std::string extent;
  for (std::size_t d = 0; d < 3; ++d) {
    const auto n = d < axes.size() ? static_cast<std::int64_t>(axes[d].coordinates.size()) : 1;
    extent += fmt::format("{}0 {}", d ? " " : "", n - 1);
    if (d < axes.size()) spacing[d] = uniform_spacing(axes[d].coordinates);
    uniform = uniform && spacing[d];
  }
  const char* type = uniform ? "ImageData" : "RectilinearGrid";
  std::string out = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"{}\" version=\"1.0\" "
      "byte_order=\"LittleEndian\">\n",
      type);
  if (uniform) {
    std::string origin, step;
    for (std::size_t d = 0; d < 3; ++d) {
      const bool has = d < axes.size() && !axes[d].coordinates.empty();
      origin += fmt::format("{}{:.17g}", d ? " " : "", has ? axes[d].coordinates.front() : 0.0);
      step += fmt::format("{}{:.17g}", d ? " " : "", *spacing[d]);
    }
    out += fmt::format("  <ImageData WholeExtent=\"{}\" Origin=\"{}\" Spacing=\"{}\">\n", extent,
                       origin, step);
  } else {
    out += fmt::format("  <RectilinearGrid WholeExtent=\"{}\">\n", extent);
  }
  out += fmt::format("    <Piece Extent=\"{}\">\n      <PointData", extent);
  if (!layout.components.empty())
    out += fmt::format(" Scalars=\"{}\"", xml_attribute(layout.components.front()));
  out += ">\n";
  const std::size_t m = layout.points();
  const std::size_t row = std::max<std::size_t>(axes[0].coordinates.size(), 1);
  for (std::size_t c = 0; c < layout.components.size(); ++c)
    append_array(out, layout.components[c], u.subspan(c * m, m), row);
  out += "      </PointData>\n";
  if (!uniform) {
    out += "      <Coordinates>\n";
    const std::vector<double> single{0.0};
    for (std::size_t d = 0; d < 3; ++d) {
      const auto& c = d < axes.size() ? axes[d].coordinates : single;
      append_array(out, d < axes.size() ? std::string_view(axes[d].name) : "", c,
                   std::max<std::size_t>(c.size(), 1));
    }
    out += "      </Coordinates>\n";
  }
  out += fmt::format("    </Piece>\n  </{}>\n</VTKFile>\n", type);
  auto path = stem;
  path += uniform ? ".vti" : ".vtr";
  write_file_atomic(path, out);
}

}  // namespace solvent
