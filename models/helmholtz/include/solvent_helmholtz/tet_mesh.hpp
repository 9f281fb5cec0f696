#pragma once
// A linear tetrahedral mesh with named boundary groups: what the built-in mesher and the
// gmsh reader produce and the P1 assembly consumes.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace solvent::helmholtz {

using Point = std::array<double, 3>;

// The vector arithmetic of a tetrahedron's geometry, shared by the reader's volume check and
// the P1 assembly.
inline Point minus(const Point& a, const Point& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
inline Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
inline double dot(const Point& a, const Point& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

struct BoundaryGroup {
  std::string name;
  std::vector<std::array<std::int32_t, 3>> triangles;  // node indices
};

struct TetMesh {
  std::vector<Point> nodes;
  std::vector<std::array<std::int32_t, 4>> tets;  // node indices, either orientation
  std::vector<BoundaryGroup> groups;

  const BoundaryGroup* group(const std::string& name) const {
    for (const auto& g : groups)
      if (g.name == name) return &g;
    return nullptr;
  }
};

}  // namespace solvent::helmholtz
