#pragma once
// Fields an integrator writes itself (the snapshots of a time stepper), written by the core
// in the run's [output] format and precision, so that a plugin has no file format of its own:
//   STEM_SSSSSSSS.vti            a grid at step SSSSSSSS, format = "vtk" on one rank: raw
//                                appended binary, the time as TimeValue
//   STEM_SSSSSSSS.pvti           the same over several ranks, each rank writing its own piece,
//   STEM_SSSSSSSS_pieces/piece_RRRR.vti   nothing gathered to one rank
//   STEM_SSSSSSSS.vtkhdf         format = "vtkhdf": one file into which every rank writes its
//                                block collectively (parallel HDF5)
//   STEM_SSSSSSSS.vtp            lines (a vessel network) as binary PolyData, by rank 0
//   series.pvd                   every file with its time; the stems are the parts of one data
//                                set per time, so ParaView opens all of them as one time series
// Nothing at all with format = "none". The framework gives a run one (RunContext::fields).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace solvent {

// A uniform grid of `nodes` nodes per axis, node (i, j, k) at origin + (i, j, k) spacing, held
// in blocks by the ranks: this rank's block is the nodes first .. first + count - 1 per axis.
struct GridBlockOutput {
  std::array<std::int64_t, 3> nodes{1, 1, 1};
  std::array<double, 3> origin{0.0, 0.0, 0.0};
  std::array<double, 3> spacing{1.0, 1.0, 1.0};
  std::array<std::int64_t, 3> first{0, 0, 0};
  std::array<std::int64_t, 3> count{1, 1, 1};

  // The nodes the values cover per axis: the block and, on each upper side where the grid
  // goes on, one layer more (a neighbour's first), so that VTK pieces share a layer and no
  // cell between blocks is lost. One rank: the whole grid.
  std::int64_t held(std::size_t axis) const {
    return count[axis] + (first[axis] + count[axis] < nodes[axis] ? 1 : 0);
  }
  std::size_t held_points() const {
    return static_cast<std::size_t>(held(0) * held(1) * held(2));
  }
};

// Line segments between points, with values on the points and on the segments.
struct LinesOutput {
  std::vector<double> points;         // x, y, z of each point
  std::vector<std::int64_t> ends;     // the two points of each segment
  std::vector<std::pair<std::string, std::vector<double>>> point_data;    // a value per point
  std::vector<std::pair<std::string, std::vector<double>>> segment_data;  // a value per segment
};

class FieldOutput {
 public:
  virtual ~FieldOutput() = default;
  // Every rank calls it together: `values` holds each component in turn over the nodes
  // grid.held gives (axis 1 fastest). A file that cannot be written fails the call on every
  // rank (solvent::Error naming the file), and the files written before it are kept.
  virtual void write_grid(std::string_view stem, std::int64_t step, double t,
                          const GridBlockOutput& grid, const std::vector<std::string>& components,
                          std::span<const double> values) = 0;
  // Every rank calls it together, with the same lines; rank 0 writes them.
  virtual void write_lines(std::string_view stem, std::int64_t step, double t,
                           const LinesOutput& lines) = 0;
};

}  // namespace solvent
