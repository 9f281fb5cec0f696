#pragma once
// Node indexing and the reflecting (no-flux) neighbours of the unit-cube grid.
#include <solvent/device/host_device.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <cstdint>
#include <limits>

namespace solvent::angiogenesis_3d {

// Node indices are std::int32_t, so a grid holds at most this many nodes; with every axis
// at least 5 nodes long (the schema's minimum), one axis at most max_nodes / 25.
inline constexpr std::int64_t max_nodes = std::numeric_limits<std::int32_t>::max();
inline constexpr std::int64_t max_axis_nodes = max_nodes / 25;

struct Grid {
  std::int32_t nx, ny, nz;

  SOLVENT_HD std::int64_t size() const { return static_cast<std::int64_t>(nx) * ny * nz; }
  SOLVENT_HD std::int32_t index(std::int32_t i, std::int32_t j, std::int32_t k) const {
    return i + nx * (j + ny * k);
  }
  SOLVENT_HD void coordinates(std::int32_t m, std::int32_t& i, std::int32_t& j,
                              std::int32_t& k) const {
    i = m % nx;
    j = (m / nx) % ny;
    k = m / (nx * ny);
  }
};

inline Grid grid_of(const Parameters& p) {
  return {static_cast<std::int32_t>(p.nx), static_cast<std::int32_t>(p.ny),
          static_cast<std::int32_t>(p.nz)};
}

// Neighbour index along one axis with mirror ghosts: the ghost node beyond a face carries
// the value of the first interior node, which makes every normal difference vanish there.
SOLVENT_HD inline std::int32_t mirror_below(std::int32_t i) { return i > 0 ? i - 1 : 1; }
SOLVENT_HD inline std::int32_t mirror_above(std::int32_t i, std::int32_t n) {
  return i < n - 1 ? i + 1 : n - 2;
}

// The seven node indices of the stencil at (i, j, k): centre, x-, x+, y-, y+, z-, z+.
struct Neighbours {
  std::int32_t m[7];
};

SOLVENT_HD inline Neighbours neighbours(const Grid& g, std::int32_t i, std::int32_t j,
                                        std::int32_t k) {
  const std::int32_t sx = 1, sy = g.nx, sz = g.nx * g.ny;
  const std::int32_t c = g.index(i, j, k);
  return {{c, c + (mirror_below(i) - i) * sx, c + (mirror_above(i, g.nx) - i) * sx,
           c + (mirror_below(j) - j) * sy, c + (mirror_above(j, g.ny) - j) * sy,
           c + (mirror_below(k) - k) * sz, c + (mirror_above(k, g.nz) - k) * sz}};
}

}  // namespace solvent::angiogenesis_3d
