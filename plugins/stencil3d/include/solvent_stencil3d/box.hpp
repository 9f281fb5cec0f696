#pragma once
// A box of the grid's nodes, stored with axis 1 fastest like the grid: what an engine holds
// f, c and owner on. One rank holds the whole grid; over several ranks a rank holds its
// block and the nodes around it that its tips read (docs/architecture.md, "The hybrid
// stencil over ranks").
#include <solvent/device/host_device.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <cstdint>

namespace solvent::stencil3d {

using solvent::angiogenesis_3d::Grid;

struct Box {
  std::int32_t offset[3];  // global index of the first node, per axis
  std::int32_t extent[3];  // nodes per axis

  SOLVENT_HD std::int64_t size() const {
    return static_cast<std::int64_t>(extent[0]) * extent[1] * extent[2];
  }
  SOLVENT_HD bool contains(std::int32_t i, std::int32_t j, std::int32_t k) const {
    return i >= offset[0] && i < offset[0] + extent[0] && j >= offset[1] &&
           j < offset[1] + extent[1] && k >= offset[2] && k < offset[2] + extent[2];
  }
  // The array index of global node (i, j, k), which the box contains.
  SOLVENT_HD std::int32_t index(std::int32_t i, std::int32_t j, std::int32_t k) const {
    return (i - offset[0]) + extent[0] * ((j - offset[1]) + extent[1] * (k - offset[2]));
  }
  // The array index of global node m, or -1 where the box does not contain it.
  SOLVENT_HD std::int32_t find(const Grid& g, std::int32_t m) const {
    std::int32_t i, j, k;
    g.coordinates(m, i, j, k);
    return contains(i, j, k) ? index(i, j, k) : -1;
  }
};

inline Box whole_grid(const Grid& g) { return {{0, 0, 0}, {g.nx, g.ny, g.nz}}; }

}  // namespace solvent::stencil3d
