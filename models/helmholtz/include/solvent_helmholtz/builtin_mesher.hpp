#pragma once
// Structured tetrahedral meshes of the built-in shapes (box, cylinder, car cabin), so
// that large cavity matrices can be made where gmsh is not installed.
#include <solvent_helmholtz/tet_mesh.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace solvent::helmholtz {

struct BuiltinShape {
  std::string name;         // "box", "cylinder", "cabin"
  std::int64_t resolution;  // cells per metre along each axis
  Point box_size{1.0, 1.0, 1.0};
  double cylinder_radius = 0.5;
  double cylinder_length = 2.0;
};

const std::vector<std::string>& builtin_shape_names();

// Throws std::invalid_argument for an unknown shape name.
TetMesh make_builtin_mesh(const BuiltinShape& shape);

}  // namespace solvent::helmholtz
