#pragma once
// Reads gmsh MSH files, ASCII versions 4.1 and 2.2: the linear tetrahedra become the
// mesh, the triangles of physical surfaces its boundary groups (named by $PhysicalNames,
// or by their number). Nodes that no tetrahedron uses are dropped. A malformed file
// throws InputError "<file>:<line>: <what>": besides the format's own rules, a negative
// count or one larger than the rest of the file can hold (checked before anything is
// allocated for it), a NaN or infinite coordinate, a node listed twice and a tetrahedron
// naming a node twice.
#include <solvent_helmholtz/tet_mesh.hpp>

#include <filesystem>
#include <string>
#include <string_view>

namespace solvent::helmholtz {

TetMesh read_gmsh(const std::filesystem::path& path);
// The same from text in memory; `name` stands for the file in messages.
TetMesh parse_gmsh(std::string_view text, const std::string& name);

}  // namespace solvent::helmholtz
