#include "io/vtk_writer.hpp"

#include "io/vtkhdf_writer.hpp"

#include "sdk/checked_file.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
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

// A VTK XML file being put together: the dataset's elements as text, and its arrays, which
// in binary form follow the elements as raw appended data (a UInt64 byte count, then the
// values, little-endian as x86 and the GPU hosts are), written straight from the caller's
// span, so a file never exists as one string in memory.
class VtkDocument {
 public:
  VtkDocument(std::string_view type, const VtkFormat& format) : type_(type), format_(format) {
    static_assert(std::endian::native == std::endian::little, "raw VTK data is written as is");
  }
  std::string& text() { return text_; }

  // One DataArray; in text form one line per `per_line` values (a row of the first axis, so
  // the file reads like the grid it holds); `tuple`: NumberOfComponents (3 for points).
  void array(std::string_view name, std::span<const double> v, std::size_t per_line,
             int tuple = 1) {
    open_array(format_.float32 ? "Float32" : "Float64", name, tuple);
    if (format_.binary) {
      append(v, v.size() * value_bytes());
      return;
    }
    text_ += " format=\"ascii\">\n";
    auto it = std::back_inserter(text_);
    for (std::size_t i = 0; i < v.size(); ++i) {
      text_ += i == 0 ? "          " : i % per_line == 0 ? "\n          " : " ";
      if (format_.float32)
        fmt::format_to(it, "{:.9g}", static_cast<float>(v[i]));
      else
        fmt::format_to(it, "{:.17g}", v[i]);
    }
    close_text(v.size());
  }
  // Indices (a polydata's connectivity and offsets): Int64 in either precision.
  void array(std::string_view name, std::span<const std::int64_t> v, std::size_t per_line) {
    open_array("Int64", name, 1);
    if (format_.binary) {
      append(v, v.size() * sizeof(std::int64_t));
      return;
    }
    text_ += " format=\"ascii\">\n";
    auto it = std::back_inserter(text_);
    for (std::size_t i = 0; i < v.size(); ++i) {
      text_ += i == 0 ? "          " : i % per_line == 0 ? "\n          " : " ";
      fmt::format_to(it, "{}", v[i]);
    }
    close_text(v.size());
  }

  void write(const std::filesystem::path& file) const {
    write_atomically(file, [&](CheckedFile& f) {
      f.write(
          fmt::format("<?xml version=\"1.0\"?>\n<VTKFile type=\"{}\" version=\"1.0\" "
                      "byte_order=\"LittleEndian\"{}>\n",
                      type_, format_.binary ? " header_type=\"UInt64\"" : ""));
      f.write(text_);
      if (format_.binary) {
        f.write("  <AppendedData encoding=\"raw\">\n   _");
        for (const auto& v : arrays_) std::visit([&](auto a) { write_raw(f, a); }, v);
        f.write("\n  </AppendedData>\n");
      }
      f.write("</VTKFile>\n");
    });
  }

 private:
  using Values = std::variant<std::span<const double>, std::span<const std::int64_t>>;

  std::size_t value_bytes() const { return format_.float32 ? sizeof(float) : sizeof(double); }

  void open_array(std::string_view type, std::string_view name, int tuple) {
    text_ += fmt::format("        <DataArray type=\"{}\"", type);
    if (!name.empty()) text_ += fmt::format(" Name=\"{}\"", xml_attribute(name));
    if (tuple != 1) text_ += fmt::format(" NumberOfComponents=\"{}\"", tuple);
  }
  void append(Values v, std::size_t bytes) {
    text_ += fmt::format(" format=\"appended\" offset=\"{}\"/>\n", offset_);
    offset_ += sizeof(std::uint64_t) + bytes;
    arrays_.push_back(v);
  }
  void close_text(std::size_t values) {
    if (values > 0) text_ += '\n';
    text_ += "        </DataArray>\n";
  }

  void write_raw(CheckedFile& f, std::span<const std::int64_t> v) const {
    const std::uint64_t bytes = v.size() * sizeof(std::int64_t);
    f.write({reinterpret_cast<const char*>(&bytes), sizeof bytes});
    f.write({reinterpret_cast<const char*>(v.data()), bytes});
  }
  void write_raw(CheckedFile& f, std::span<const double> v) const {
    const std::uint64_t bytes = v.size() * value_bytes();
    f.write({reinterpret_cast<const char*>(&bytes), sizeof bytes});
    if (!format_.float32) {
      f.write({reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double)});
      return;
    }
    // Converted a bounded chunk at a time.
    std::vector<float> chunk(std::min<std::size_t>(v.size(), 1 << 16));
    for (std::size_t at = 0; at < v.size(); at += chunk.size()) {
      const std::size_t n = std::min(chunk.size(), v.size() - at);
      std::transform(v.begin() + static_cast<std::ptrdiff_t>(at),
                     v.begin() + static_cast<std::ptrdiff_t>(at + n), chunk.begin(),
                     [](double x) { return static_cast<float>(x); });
      f.write({reinterpret_cast<const char*>(chunk.data()), n * sizeof(float)});
    }
  }

  std::string type_;
  VtkFormat format_;
  std::string text_;
  std::vector<Values> arrays_;
  std::size_t offset_ = 0;
};

// "i0 i1 j0 j1 k0 k1", VTK's extent of a grid (first and last node per axis).
std::string extent_text(const std::array<std::int64_t, 3>& first,
                        const std::array<std::int64_t, 3>& last) {
  return fmt::format("{} {} {} {} {} {}", first[0], last[0], first[1], last[1], first[2], last[2]);
}

std::string triple_text(const std::array<double, 3>& v) {
  return fmt::format("{:.17g} {:.17g} {:.17g}", v[0], v[1], v[2]);
}

// The time of a state, as the field VTK's readers take for time (TimeValue), so that one
// file opened alone still says when it is; a series (.pvd) gives it to ParaView's slider.
void append_time(std::string& out, std::optional<double> time) {
  if (!time) return;
  out += fmt::format(
      "    <FieldData>\n      <DataArray type=\"Float64\" Name=\"TimeValue\" "
      "NumberOfTuples=\"1\" format=\"ascii\">{:.17g}</DataArray>\n    </FieldData>\n",
      *time);
}

// The piece's point data: one array per component, each `points` values of u in turn.
void append_point_data(VtkDocument& doc, const std::vector<std::string>& components,
                       std::span<const double> u, std::size_t points, std::size_t row) {
  std::string& out = doc.text();
  out += "      <PointData";
  if (!components.empty()) out += fmt::format(" Scalars=\"{}\"", xml_attribute(components.front()));
  out += ">\n";
  for (std::size_t c = 0; c < components.size(); ++c)
    doc.array(components[c], u.subspan(c * points, points), row);
  doc.text() += "      </PointData>\n";
}

// An ImageData file of one piece with extent [first, last] (its whole extent too).
void write_image_data(const std::filesystem::path& file, const VtkImage& image,
                      const std::array<std::int64_t, 3>& first,
                      const std::array<std::int64_t, 3>& last,
                      const std::vector<std::string>& components, std::span<const double> u,
                      const VtkFormat& format, std::optional<double> time = std::nullopt) {
  const std::string extent = extent_text(first, last);
  VtkDocument doc("ImageData", format);
  doc.text() += fmt::format("  <ImageData WholeExtent=\"{}\" Origin=\"{}\" Spacing=\"{}\">\n",
                            extent, triple_text(image.origin), triple_text(image.spacing));
  append_time(doc.text(), time);
  doc.text() += fmt::format("    <Piece Extent=\"{}\">\n", extent);
  std::size_t points = 1;
  for (std::size_t d = 0; d < 3; ++d) points *= static_cast<std::size_t>(last[d] - first[d] + 1);
  append_point_data(doc, components, u, points,
                    static_cast<std::size_t>(std::max<std::int64_t>(last[0] - first[0] + 1, 1)));
  doc.text() += "    </Piece>\n  </ImageData>\n";
  doc.write(file);
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

VtkFormat vtk_format(const Parameters& output) {
  const auto& format = output.string("format");
  return {format != "vtk-ascii", output.string("precision") == "float32", format == "vtkhdf"};
}

bool vtk_fields_written(const Parameters& output) { return output.string("format") != "none"; }

std::filesystem::path write_vtk_grid(const std::filesystem::path& stem, const FieldLayout& layout,
                                     std::span<const double> u, const VtkFormat& format,
                                     std::optional<double> time) {
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
    if (format.hdf) {
      write_vtkhdf_image(path += ".vtkhdf", image, {last[0] + 1, last[1] + 1, last[2] + 1},
                         {{0, 0, 0}, {last[0] + 1, last[1] + 1, last[2] + 1}}, layout.components,
                         u, format.float32, time, single_rank());
      return path;
    }
    write_image_data(path += ".vti", image, {0, 0, 0}, last, layout.components, u, format, time);
    return path;
  }
  const std::string extent = extent_text({0, 0, 0}, last);
  VtkDocument doc("RectilinearGrid", format);
  doc.text() += fmt::format("  <RectilinearGrid WholeExtent=\"{}\">\n", extent);
  append_time(doc.text(), time);
  doc.text() += fmt::format("    <Piece Extent=\"{}\">\n", extent);
  append_point_data(doc, layout.components, u, layout.points(),
                    std::max<std::size_t>(axes[0].coordinates.size(), 1));
  doc.text() += "      <Coordinates>\n";
  static const std::vector<double> single{0.0};
  for (std::size_t d = 0; d < 3; ++d) {
    const auto& c = d < axes.size() ? axes[d].coordinates : single;
    doc.array(d < axes.size() ? std::string_view(axes[d].name) : "", c,
              std::max<std::size_t>(c.size(), 1));
  }
  doc.text() += "      </Coordinates>\n    </Piece>\n  </RectilinearGrid>\n";
  doc.write(path += ".vtr");
  return path;
}

bool vtk_uniform_coordinates(std::span<const double> c, double origin, double spacing,
                             std::int64_t first) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double expected =
        origin + static_cast<double>(first + static_cast<std::int64_t>(i)) * spacing;
    if (!(std::abs(c[i] - expected) <= uniform_tolerance * std::abs(spacing))) return false;
  }
  return true;
}

void write_vtk_image_piece(const std::filesystem::path& file, const VtkImage& image,
                           const VtkPiece& piece, const std::vector<std::string>& components,
                           std::span<const double> u, const VtkFormat& format,
                           std::optional<double> time) {
  const std::size_t values = piece_values(piece, components.size());
  if (u.size() != values)
    throw Error(fmt::format("{}: a piece of extent {} has {} values, given {}", file.string(),
                            extent_text(piece.first, piece.last), values, u.size()));
  write_image_data(file, image, piece.first, piece.last, components, u, format, time);
}

void write_vtk_image_pieces(const std::filesystem::path& file, const VtkImage& image,
                            const std::array<std::int64_t, 3>& nodes,
                            const std::vector<std::string>& components,
                            std::span<const VtkPiece> pieces, const VtkFormat& format) {
  std::string out = fmt::format(
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PImageData\" version=\"1.0\" "
      "byte_order=\"LittleEndian\"{}>\n",
      format.binary ? " header_type=\"UInt64\"" : "");
  out += fmt::format(
      "  <PImageData WholeExtent=\"{}\" GhostLevel=\"0\" Origin=\"{}\" Spacing=\"{}\">\n",
      extent_text({0, 0, 0}, {nodes[0] - 1, nodes[1] - 1, nodes[2] - 1}), triple_text(image.origin),
      triple_text(image.spacing));
  out += "    <PPointData";
  if (!components.empty()) out += fmt::format(" Scalars=\"{}\"", xml_attribute(components.front()));
  out += ">\n";
  for (const auto& c : components)
    out += fmt::format("      <PDataArray type=\"{}\" Name=\"{}\"/>\n",
                       format.float32 ? "Float32" : "Float64", xml_attribute(c));
  out += "    </PPointData>\n";
  for (const auto& p : pieces)
    out += fmt::format("    <Piece Extent=\"{}\" Source=\"{}\"/>\n", extent_text(p.first, p.last),
                       xml_attribute(p.source));
  out += "  </PImageData>\n</VTKFile>\n";
  write_file_atomic(file, out);
}

void write_vtk_lines(const std::filesystem::path& file, const LinesOutput& lines,
                     const VtkFormat& format, std::optional<double> time) {
  const std::size_t points = lines.points.size() / 3, segments = lines.ends.size() / 2;
  if (lines.points.size() != 3 * points || lines.ends.size() != 2 * segments)
    throw Error(fmt::format("{}: {} point coordinates and {} segment ends", file.string(),
                            lines.points.size(), lines.ends.size()));
  for (const auto& [name, v] : lines.point_data)
    if (v.size() != points)
      throw Error(fmt::format("{}: {} values of {} for {} points", file.string(), v.size(), name,
                              points));
  for (const auto& [name, v] : lines.segment_data)
    if (v.size() != segments)
      throw Error(fmt::format("{}: {} values of {} for {} segments", file.string(), v.size(),
                              name, segments));
  std::vector<std::int64_t> offsets(segments);
  for (std::size_t e = 0; e < segments; ++e) offsets[e] = 2 * static_cast<std::int64_t>(e + 1);
  VtkDocument doc("PolyData", format);
  std::string& out = doc.text();
  out += "  <PolyData>\n";
  append_time(out, time);
  out += fmt::format(
      "    <Piece NumberOfPoints=\"{}\" NumberOfVerts=\"0\" NumberOfLines=\"{}\" "
      "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n      <Points>\n",
      points, segments);
  doc.array("", lines.points, 3, 3);
  doc.text() += "      </Points>\n      <PointData>\n";
  for (const auto& [name, v] : lines.point_data) doc.array(name, v, 1);
  doc.text() += "      </PointData>\n      <CellData>\n";
  for (const auto& [name, v] : lines.segment_data) doc.array(name, v, 1);
  doc.text() += "      </CellData>\n      <Lines>\n";
  doc.array("connectivity", lines.ends, 2);
  doc.array("offsets", offsets, 1);
  doc.text() += "      </Lines>\n    </Piece>\n  </PolyData>\n";
  doc.write(file);
}

}  // namespace solvent
