#include <solvent_helmholtz/builtin_mesher.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

namespace solvent::helmholtz {
namespace {

constexpr int fluid = -1;

// A grid of n[0] x n[1] x n[2] hexahedra whose vertices are placed by `vertex`. Cells
// for which `solid` returns a group index are left out and their faces bound the fluid
// with that group; faces on the grid's outside get the group `outer(axis, side)`.
struct HexGrid {
  std::array<int, 3> n{};
  std::vector<std::string> group_names;
  std::function<Point(int, int, int)> vertex;
  std::function<int(int, int, int)> solid = [](int, int, int) { return fluid; };
  std::function<int(int axis, int side)> outer;
  // Bit a set: the cell's Kuhn split is mirrored along axis a. Mirroring whole halves of
  // the grid keeps every shared face split the same way from both sides.
  std::function<unsigned(int, int, int)> mirror = [](int, int, int) { return 0u; };
};

// The 6 tetrahedra of the Kuhn split of the unit cube: paths from corner 0 to corner 7
// adding one axis at a time. Corner c has x = bit 0, y = bit 1, z = bit 2.
constexpr std::array<std::array<unsigned, 4>, 6> kuhn_tets = {
    {{0, 1, 3, 7}, {0, 1, 5, 7}, {0, 2, 3, 7}, {0, 2, 6, 7}, {0, 4, 5, 7}, {0, 4, 6, 7}}};

// Cells along one axis, counted in double: std::lround of 1e19 overflows, and a 1e18 m
// box at 10 cells per metre used to come out as a single cell.
double cells_along(double length, std::int64_t resolution) {
  return std::max(1.0, std::round(length * static_cast<double>(resolution)));
}

// The grid of `cells`, or ConfigError naming `keys` where it cannot be meshed as asked.
// A mesh the size that was asked for or none: a coarser mesh than the resolution says
// would give a solution of another accuracy under the same settings. The limit is the
// mesh's 32-bit node numbers; the memory of a mesh below it is the run's to check.
std::array<int, 3> grid_cells(const std::array<double, 3>& cells, const std::string& keys) {
  const double vertices = (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1);
  if (!(vertices <= std::numeric_limits<std::int32_t>::max()))
    throw ConfigError({fmt::format(
        "[model] {}: the built-in mesh would have {:.3g} x {:.3g} x {:.3g} cells (lengths "
        "times resolution), more than the {} vertices that 32-bit node numbers can address; "
        "shrink the geometry or lower resolution",
        keys, cells[0], cells[1], cells[2], std::numeric_limits<std::int32_t>::max())});
  return {static_cast<int>(cells[0]), static_cast<int>(cells[1]), static_cast<int>(cells[2])};
}

TetMesh mesh_hex_grid(const HexGrid& g) {
  // Not a structured binding: clang before 16 (the fuzz build) cannot capture one.
  const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
  const std::size_t vx = nx + 1, vy = ny + 1, vz = nz + 1;
  auto cell_index = [&](int i, int j, int k) {
    return i + std::size_t(nx) * (j + std::size_t(ny) * k);
  };
  auto vertex_index = [&](int i, int j, int k) { return i + vx * (j + vy * k); };

  std::vector<int> solid(std::size_t(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) solid[cell_index(i, j, k)] = g.solid(i, j, k);

  std::vector<std::int32_t> id(vx * vy * vz, -1);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        if (solid[cell_index(i, j, k)] == fluid)
          for (unsigned c = 0; c < 8; ++c)
            id[vertex_index(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1))] = 0;

  TetMesh mesh;
  for (std::size_t k = 0; k < vz; ++k)
    for (std::size_t j = 0; j < vy; ++j)
      for (std::size_t i = 0; i < vx; ++i) {
        auto& v = id[vertex_index(int(i), int(j), int(k))];
        if (v < 0) continue;
        v = static_cast<std::int32_t>(mesh.nodes.size());
        mesh.nodes.push_back(g.vertex(int(i), int(j), int(k)));
      }

  mesh.groups.resize(g.group_names.size());
  for (std::size_t q = 0; q < g.group_names.size(); ++q) mesh.groups[q].name = g.group_names[q];

  mesh.tets.reserve(6 * std::count(solid.begin(), solid.end(), fluid));
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        if (solid[cell_index(i, j, k)] != fluid) continue;
        const unsigned flip = g.mirror(i, j, k);
        auto node = [&](unsigned c) {
          return id[vertex_index(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1))];
        };
        std::array<std::array<unsigned, 4>, 6> corners;
        for (std::size_t t = 0; t < 6; ++t) {
          for (std::size_t m = 0; m < 4; ++m) corners[t][m] = kuhn_tets[t][m] ^ flip;
          mesh.tets.push_back(
              {node(corners[t][0]), node(corners[t][1]), node(corners[t][2]), node(corners[t][3])});
        }
        const std::array<int, 3> at{i, j, k};
        for (int axis = 0; axis < 3; ++axis)
          for (int side = 0; side < 2; ++side) {
            auto next = at;
            next[axis] += side ? 1 : -1;
            int group;
            if (next[axis] < 0 || next[axis] >= g.n[axis])
              group = g.outer(axis, side);
            else
              group = solid[cell_index(next[0], next[1], next[2])];
            if (group == fluid) continue;
            // The two triangles on this face are the tetrahedron faces whose corners all
            // lie on it, so they match the volume split exactly.
            for (const auto& tet : corners)
              for (std::size_t skip = 0; skip < 4; ++skip) {
                std::array<std::int32_t, 3> tri;
                bool on_face = true;
                for (std::size_t m = 0, q = 0; m < 4; ++m) {
                  if (m == skip) continue;
                  on_face = on_face && ((tet[m] >> axis & 1u) == unsigned(side));
                  tri[q++] = node(tet[m]);
                }
                if (on_face) mesh.groups[group].triangles.push_back(tri);
              }
          }
      }
  return mesh;
}

HexGrid box_grid(const BuiltinShape& s) {
  HexGrid g;
  const Point size = s.box_size;
  g.n = grid_cells({cells_along(size[0], s.resolution), cells_along(size[1], s.resolution),
                    cells_along(size[2], s.resolution)},
                   "box.size");
  g.group_names = {"inlet", "outlet", "walls"};
  g.vertex = [size, n = g.n](int i, int j, int k) {
    return Point{size[0] * i / n[0], size[1] * j / n[1], size[2] * k / n[2]};
  };
  g.outer = [](int axis, int side) { return axis == 0 ? side : 2; };
  return g;
}

// A square grid of concentric squares stretched radially onto concentric circles, so the
// cross-section is a disk; the Kuhn split is mirrored in each quadrant so the diagonals
// of the cells bent at the square's corners run outwards and no element flattens.
HexGrid cylinder_grid(const BuiltinShape& s) {
  HexGrid g;
  const double radial = cells_along(s.cylinder_radius, s.resolution);
  g.n = grid_cells({2 * radial, 2 * radial, cells_along(s.cylinder_length, s.resolution)},
                   "cylinder.radius, cylinder.length");
  const int half = g.n[0] / 2;
  g.group_names = {"inlet", "outlet", "walls"};
  g.vertex = [half, r = s.cylinder_radius, len = s.cylinder_length, nz = g.n[2]](int i, int j,
                                                                                 int k) {
    const double u = double(i - half) / half, v = double(j - half) / half;
    const double rho = std::hypot(u, v);
    const double stretch = rho > 0 ? r * std::max(std::abs(u), std::abs(v)) / rho : 0.0;
    return Point{u * stretch, v * stretch, len * k / nz};
  };
  g.outer = [](int axis, int side) { return axis == 2 ? side : 2; };
  g.mirror = [half](int i, int j, int) { return unsigned(i < half) | unsigned(j < half) << 1; };
  return g;
}

// Roof height of the cabin over the firewall distance x (m): footwell, windscreen, roof,
// rear window.
double cabin_roof(double x) {
  if (x <= 0.3) return 0.75;
  if (x <= 1.1) return 0.75 + 0.4 * (x - 0.3) / 0.8;
  if (x <= 2.2) return 1.15;
  return 1.15 - 0.3 * (x - 2.2) / 0.6;
}

HexGrid cabin_grid(const BuiltinShape& s) {
  constexpr double length = 2.8, width = 1.4, height = 1.15;
  enum { firewall, seats, dashboard, walls };
  HexGrid g;
  g.n = grid_cells({cells_along(length, s.resolution), cells_along(width, s.resolution),
                    cells_along(height, s.resolution)},
                   "resolution");
  g.group_names = {"firewall", "seats", "dashboard", "walls"};
  auto place = [n = g.n](double i, double j, double k) {
    const double x = length * i / n[0];
    return Point{x, width * (j / n[1] - 0.5), cabin_roof(x) * k / n[2]};
  };
  g.vertex = [place](int i, int j, int k) { return place(i, j, k); };
  g.solid = [place](int i, int j, int k) {
    const auto [x, y, z] = place(i + 0.5, j + 0.5, k + 0.5);
    const double ay = std::abs(y);
    if (x < 0.45 && z > 0.5) return int(dashboard);
    const bool front_seat =
        x > 1.2 && x < 1.75 && ay > 0.1 && ay < 0.6 && (z < 0.45 || (x > 1.6 && z < 0.95));
    const bool rear_bench = x > 2.1 && x < 2.65 && ay < 0.6 && (z < 0.45 || (x > 2.5 && z < 0.9));
    return front_seat || rear_bench ? int(seats) : fluid;
  };
  g.outer = [](int axis, int side) { return axis == 0 && side == 0 ? int(firewall) : int(walls); };
  return g;
}

}  // namespace

const std::vector<std::string>& builtin_shape_names() {
  static const std::vector<std::string> names{"box", "cylinder", "cabin"};
  return names;
}

TetMesh make_builtin_mesh(const BuiltinShape& shape) {
  if (shape.name == "box") return mesh_hex_grid(box_grid(shape));
  if (shape.name == "cylinder") return mesh_hex_grid(cylinder_grid(shape));
  if (shape.name == "cabin") return mesh_hex_grid(cabin_grid(shape));
  throw std::invalid_argument("unknown built-in mesh '" + shape.name + "'");
}

}  // namespace solvent::helmholtz
