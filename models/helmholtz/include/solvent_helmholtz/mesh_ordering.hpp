#pragma once
// Node renumbering for meshes that come without a good order (gmsh numbers nodes by
// geometric entity): reverse Cuthill-McKee gives a small matrix bandwidth, which keeps
// SpMV cache-friendly and banded direct solvers cheap.
#include <solvent_helmholtz/tet_mesh.hpp>

namespace solvent::helmholtz {

void renumber_reverse_cuthill_mckee(TetMesh& mesh);

// max |i - j| over the pairs of nodes sharing a tetrahedron.
std::size_t bandwidth(const TetMesh& mesh);

}  // namespace solvent::helmholtz
