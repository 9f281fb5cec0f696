#pragma once
// Fields on grids of two or three axes as VTK XML files (ASCII, so they diff and read back
// without a VTK library): ImageData (.vti) where every axis is uniformly spaced, which
// ParaView and VisIt treat as a regular grid, RectilinearGrid (.vtr) with the coordinates
// otherwise. Values are printed with 17 significant digits, as in the CSV files.
#include <solvent/model.hpp>

#include <filesystem>
#include <span>

namespace solvent {

// The layouts write_vtk_grid takes.
inline bool vtk_grid_layout(const FieldLayout& layout) {
  return layout.axes.size() == 2 || layout.axes.size() == 3;
}

// Writes u (layout.size() values, laid out as `layout` says; two or three axes) to stem.vti
// or stem.vtr through write_file_atomic: one Float64 point-data array per component.
void write_vtk_grid(const std::filesystem::path& stem, const FieldLayout& layout,
                    std::span<const double> u);

}  // namespace solvent
