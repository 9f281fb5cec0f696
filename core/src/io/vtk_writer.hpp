#pragma once
// Fields on grids of two or three axes as VTK XML files: ImageData (.vti) where every axis is
// uniformly spaced, which ParaView and VisIt treat as a regular grid, RectilinearGrid (.vtr)
// with the coordinates otherwise. The values follow the XML as raw appended binary (a UInt64
// byte count, then the little-endian values: about 8 bytes a value, written from the
// caller's array without a copy, and read back bit for bit), or, with [output] format =
// "vtk-ascii", inline as text with 17 significant digits (9 in float32), as in the CSV files.
// A grid held in blocks by several ranks is written as pieces: one ImageData file per rank
// over its part of the global index range, and a PImageData (.pvti) listing them.
#include <solvent/io/field_output.hpp>
#include <solvent/model.hpp>
#include <solvent/parameters.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent {

// How the values are stored: raw binary or text, float64 or float32; hdf: [output] format =
// "vtkhdf", a grid on evenly spaced axes written as one .vtkhdf file (vtkhdf_writer.hpp)
// instead of VTK XML.
struct VtkFormat {
  bool binary = true;
  bool float32 = false;
  bool hdf = false;
};
// The [output] table's format and precision.
VtkFormat vtk_format(const Parameters& output);
// False for [output] format = "none": no field files at all.
bool vtk_fields_written(const Parameters& output);

// The layouts write_vtk_grid takes.
inline bool vtk_grid_layout(const FieldLayout& layout) {
  return layout.axes.size() == 2 || layout.axes.size() == 3;
}

// Writes u (layout.size() values, laid out as `layout` says; two or three axes) to stem.vti
// or stem.vtr through write_file_atomic: one Float64 point-data array per component; with
// format.hdf, to stem.vtkhdf, except a grid with an unevenly spaced axis, which VTKHDF cannot
// hold (it has no rectilinear grid): that one stays stem.vtr.
// time: the state's time, written as the TimeValue field that VTK's readers take for time.
// Returns the file written (stem.vti, stem.vtr or stem.vtkhdf).
std::filesystem::path write_vtk_grid(const std::filesystem::path& stem, const FieldLayout& layout,
                                     std::span<const double> u, const VtkFormat& format,
                                     std::optional<double> time = std::nullopt);

// A uniform grid's geometry: node (i, j, k) of the whole grid lies at origin + (i, j, k) spacing.
struct VtkImage {
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
};

// One piece of a whole grid: the global indices of its first and last node per axis, and
// (for the .pvti) its file, relative to the .pvti's folder.
struct VtkPiece {
  std::array<std::int64_t, 3> first{0, 0, 0};
  std::array<std::int64_t, 3> last{0, 0, 0};
  std::string source;
};

// Whether coordinates c are origin + (first + i) spacing, to write_vtk_grid's tolerance.
bool vtk_uniform_coordinates(std::span<const double> c, double origin, double spacing,
                             std::int64_t first);

// Writes `file` (.vti): the piece's values u, component after component, each over the
// piece's nodes with axis 1 fastest; its Extent is the piece's global index range.
void write_vtk_image_piece(const std::filesystem::path& file, const VtkImage& image,
                           const VtkPiece& piece, const std::vector<std::string>& components,
                           std::span<const double> u, const VtkFormat& format,
                           std::optional<double> time = std::nullopt);

// Writes `file` (.pvti): the whole grid of `nodes` nodes per axis (WholeExtent 0..n-1), its
// components, and one <Piece Extent Source> per piece.
void write_vtk_image_pieces(const std::filesystem::path& file, const VtkImage& image,
                            const std::array<std::int64_t, 3>& nodes,
                            const std::vector<std::string>& components,
                            std::span<const VtkPiece> pieces, const VtkFormat& format);

// Writes `file` (.vtp): the lines as PolyData, one line cell per segment, the point and
// segment values as point and cell data (Float64 or Float32 as the format says; the
// connectivity Int64), and the time as TimeValue.
void write_vtk_lines(const std::filesystem::path& file, const LinesOutput& lines,
                     const VtkFormat& format, std::optional<double> time = std::nullopt);

}  // namespace solvent
