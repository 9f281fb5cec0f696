#include "vtk_writer.hpp"

#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
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

// "i0 i1 j0 j1 k0 k1", VTK's extent of a grid (first and last node per axis).
std::string extent_text(const std::array<std::int64_t, 3>& first,
                        const std::array<std::int64_t, 3>& last) {
  return fmt::format("{} {} {} {} {} {}", first[0], last[0], first[1], last[1], first[2], last[2]);
}

std::string triple_text(const std::array<double, 3>& v) {
  return fmt::format("{:.17g} {:.17g} {:.17g}", v[0], v[1], v[2]);
}

std::string file_header(std::string_view type) {
  return fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"{}\" version=\"1.0\" "
      "byte_order=\"LittleEndian\">\n",
      type);
}

// The piece's point data: one array per component, each `points` values of u in turn.
void append_point_data(std::string& out, const std::vector<std::string>& components,
                       std::span<const double> u, std::size_t points, std::size_t row) {
  out += "      <PointData";
  if (!components.empty()) out += fmt::format(" Scalars=\"{}\"", xml_attribute(components.front()));
  out += ">\n";
  for (std::size_t c = 0; c < components.size(); ++c)
    append_array(out, components[c], u.subspan(c * points, points), row);
  out += "      </PointData>\n";
}

// An ImageData file of one piece with extent [first, last] (its whole extent too).
std::string image_data_text(const VtkImage& image, const std::array<std::int64_t, 3>& first,
                            const std::array<std::int64_t, 3>& last,
                            const std::vector<std::string>& components,
                            std::span<const double> u) {
  const std::string extent = extent_text(first, last);
  std::string out = file_header("ImageData");
  out += fmt::format("  <ImageData WholeExtent=\"{}\" Origin=\"{}\" Spacing=\"{}\">\n", extent,
                     triple_text(image.origin), triple_text(image.spacing));
  out += fmt::format("    <Piece Extent=\"{}\">\n", extent);
  std::size_t points = 1;
  for (std::size_t d = 0; d < 3; ++d) points *= static_cast<std::size_t>(last[d] - first[d] + 1);
  append_point_data(out, components, u, points,
                    static_cast<std::size_t>(std::max<std::int64_t>(last[0] - first[0] + 1, 1)));
  out += "    </Piece>\n  </ImageData>\n</VTKFile>\n";
  return out;
}

std::size_t piece_values(const VtkPiece& piece, std::size_t components) {
  std::size_t points = 1;
  for (std::size_t d = 0; d < 3; ++d) {
    if (piece.last[d] < piece.first[d])
      throw Error(fmt::format("a VTK piece with the empty extent {}",
                              extent_text(piece.first, piece.last)));
    points *= static_cast<std::size_t>(piece.last[d] - piece.first[d] + 1);
  }
  return points * components;
}

}  // namespace

void write_vtk_grid(const std::filesystem::path& stem, const FieldLayout& layout,
                    std::span<const double> u) {
  const auto& axes = layout.axes;
  std::optional<double> spacing[3] = {1.0, 1.0, 1.0};  // an absent third axis: one point
  bool uniform = true;
  std::array<std::int64_t, 3> last{};
  for (std::size_t d = 0; d < 3; ++d) {
    last[d] = (d < axes.size() ? static_cast<std::int64_t>(axes[d].coordinates.size()) : 1) - 1;
    if (d < axes.size()) spacing[d] = uniform_spacing(axes[d].coordinates);
    uniform = uniform && spacing[d];
  }
  auto path = stem;
  if (uniform) {
    VtkImage image;
    for (std::size_t d = 0; d < 3; ++d) {
      const bool has = d < axes.size() && !axes[d].coordinates.empty();
      image.origin[d] = has ? axes[d].coordinates.front() : 0.0;
      image.spacing[d] = *spacing[d];
    }
    write_file_atomic(path += ".vti", image_data_text(image, {0, 0, 0}, last, layout.components, u));
    return;
  }
  const std::string extent = extent_text({0, 0, 0}, last);
  std::string out = file_header("RectilinearGrid");
  out += fmt::format("  <RectilinearGrid WholeExtent=\"{}\">\n", extent);
  out += fmt::format("    <Piece Extent=\"{}\">\n", extent);
  append_point_data(out, layout.components, u, layout.points(),
                    std::max<std::size_t>(axes[0].coordinates.size(), 1));
  out += "      <Coordinates>\n";
  const std::vector<double> single{0.0};
  for (std::size_t d = 0; d < 3; ++d) {
    const auto& c = d < axes.size() ? axes[d].coordinates : single;
    append_array(out, d < axes.size() ? std::string_view(axes[d].name) : "", c,
                 std::max<std::size_t>(c.size(), 1));
  }
  out += "      </Coordinates>\n";
  out += "    </Piece>\n  </RectilinearGrid>\n</VTKFile>\n";
  write_file_atomic(path += ".vtr", out);
}

bool vtk_uniform_coordinates(std::span<const double> c, double origin, double spacing,
                             std::int64_t first) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double expected = origin + static_cast<double>(first + static_cast<std::int64_t>(i)) * spacing;
    if (!(std::abs(c[i] - expected) <= uniform_tolerance * std::abs(spacing))) return false;
  }
  return true;
}

void write_vtk_image_piece(const std::filesystem::path& file, const VtkImage& image,
                           const VtkPiece& piece, const std::vector<std::string>& components,
                           std::span<const double> u) {
  const std::size_t values = piece_values(piece, components.size());
  if (u.size() != values)
    throw Error(fmt::format("{}: a piece of extent {} has {} values, given {}", file.string(),
                            extent_text(piece.first, piece.last), values, u.size()));
  write_file_atomic(file, image_data_text(image, piece.first, piece.last, components, u));
}

void write_vtk_image_pieces(const std::filesystem::path& file, const VtkImage& image,
                            const std::array<std::int64_t, 3>& nodes,
                            const std::vector<std::string>& components,
                            std::span<const VtkPiece> pieces) {
  std::string out = file_header("PImageData");
  out += fmt::format(
      "  <PImageData WholeExtent=\"{}\" GhostLevel=\"0\" Origin=\"{}\" Spacing=\"{}\">\n",
      extent_text({0, 0, 0}, {nodes[0] - 1, nodes[1] - 1, nodes[2] - 1}),
      triple_text(image.origin), triple_text(image.spacing));
  out += "    <PPointData";
  if (!components.empty()) out += fmt::format(" Scalars=\"{}\"", xml_attribute(components.front()));
  out += ">\n";
  for (const auto& c : components)
    out += fmt::format("      <PDataArray type=\"Float64\" Name=\"{}\"/>\n", xml_attribute(c));
  out += "    </PPointData>\n";
  for (const auto& p : pieces)
    out += fmt::format("    <Piece Extent=\"{}\" Source=\"{}\"/>\n", extent_text(p.first, p.last),
                       xml_attribute(p.source));
  out += "  </PImageData>\n</VTKFile>\n";
  write_file_atomic(file, out);
}

}  // namespace solvent
