#pragma once
// Reads gmsh MSH files, ASCII versions 4.1 and 2.2: the linear tetrahedra become the
// mesh, the triangles of physical surfaces its boundary groups (named by $PhysicalNames,
// or by their number). Nodes that no tetrahedron uses are dropped. A malformed file
// throws InputError "<file>:<line>: <what>".
#include <solvent_helmholtz/tet_mesh.hpp>

#include <filesystem>

namespace solvent::helmholtz {

TetMesh read_gmsh(const std::filesystem::path& path);

}  // namespace solvent::helmholtz
