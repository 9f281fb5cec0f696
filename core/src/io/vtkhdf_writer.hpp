#pragma once
// Fields on a uniform grid as VTKHDF: VTK's HDF5 layout, one file for the whole grid, read by
// vtkHDFReader (VTK >= 9.1, so ParaView >= 5.10) and by any HDF5 reader (h5py) without VTK:
//   /VTKHDF                       attributes Version (1, 0), Type "ImageData", WholeExtent,
//                                 Origin, Spacing, Direction
//   /VTKHDF/PointData/NAME        one dataset per component, shape (n3, n2, n1): axis 1
//                                 fastest, as the layout holds it; Float64 or Float32
//   /VTKHDF/FieldData/TimeValue   the state's time, where it has one
// Over several ranks every rank writes its own block into the one file through MPI-IO
// (parallel HDF5; the file's structure made collectively): one hyperslab per rank and
// component, written independently where every block is one run of the file, collectively
// where blocks cut axis 1 or 2 (docs/benchmarks.md, "Writing fields"), nothing gathered to rank 0,
// no copy of the values (HDF5 converts to float32 through its own bounded buffer). The file
// is written as NAME.partial and renamed by rank 0 once every rank has closed it, so a write
// cut short never leaves a file that looks whole.
// Built only where CMake finds HDF5 (parallel HDF5 where Solvent has MPI); without it,
// [output] format = "vtkhdf" is refused with the configuration.
#include "io/vtk_writer.hpp"

#include <solvent/communicator.hpp>

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent {

// Whether this build writes VTKHDF (it was built with HDF5).
bool vtkhdf_available();

// This rank's block of the whole grid: the global index of its first node and its node
// count per axis (the blocks of all ranks tile the grid, without overlap).
struct VtkhdfBlock {
  std::array<std::int64_t, 3> first{0, 0, 0};
  std::array<std::int64_t, 3> count{1, 1, 1};
  // The nodes the values cover per axis, where they are more than the block (a piece's
  // upper layers, GridBlockOutput::held): the block is taken out of them, without a copy.
  std::array<std::int64_t, 3> held{0, 0, 0};
};

// Writes `file` (.vtkhdf) over the whole grid of `nodes` nodes per axis. Every rank of `comm`
// calls it with its block and its values u (component after component, each over the
// block's nodes, or its held nodes, axis 1 fastest). A failure throws solvent::Error naming the file and
// HDF5's reason, on every rank that met it (the caller agrees across ranks).
void write_vtkhdf_image(const std::filesystem::path& file, const VtkImage& image,
                        const std::array<std::int64_t, 3>& nodes, const VtkhdfBlock& block,
                        const std::vector<std::string>& components, std::span<const double> u,
                        bool float32, std::optional<double> time, const Communicator& comm);

}  // namespace solvent
