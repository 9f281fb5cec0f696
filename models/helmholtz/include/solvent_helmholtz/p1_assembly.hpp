#pragma once
// P1 finite elements for -lap u - k^2 u = 0 on a tetrahedral mesh with Dirichlet,
// impedance (du/dn - i k u = 0) and source (du/dn = s) boundary groups. Rows are
// assembled independently (one pass for the pattern, one for the values), so the work
// spreads over threads without atomics.
#include <solvent_helmholtz/tet_mesh.hpp>

#include <solvent/csr_matrix.hpp>
#include <solvent/scalar.hpp>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent::helmholtz {

struct BoundaryConditions {
  std::vector<const BoundaryGroup*> dirichlet, impedance, source;
  double dirichlet_value = 1.0;
  double source_amplitude = 1.0;
};

struct HelmholtzSystem {
  CsrMatrix<complex> matrix;  // K - k^2 M - i k M_impedance, Dirichlet rows scaled identity
  std::vector<complex> rhs;
};

// The rows of the nodes in `rows` (ascending; all nodes when empty), columns numbered by
// node: over several ranks each assembles its own rows alone, and the system never exists
// whole on one rank.
HelmholtzSystem assemble_helmholtz(const TetMesh& mesh, double k, const BoundaryConditions& bc,
                                   std::span<const std::int32_t> rows = {});
// The system's pattern alone (no values): the graph the rows are partitioned by.
CsrMatrix<complex> helmholtz_pattern(const TetMesh& mesh, const BoundaryConditions& bc);

struct L2Error {
  double error = 0.0;      // || u_h - u ||_L2
  double reference = 0.0;  // || u ||_L2
};

// Both norms with a degree-2 quadrature on every tetrahedron.
L2Error l2_error(const TetMesh& mesh, std::span<const complex> uh,
                 const std::function<complex(const Point&)>& exact);

// A point of the mesh as the P1 basis sees it: the tetrahedron that holds it and its
// barycentric coordinates there, so that u(x) = sum weight[m] u[node[m]].
struct MeshPoint {
  std::array<std::int32_t, 4> node{};
  std::array<double, 4> weight{};
};
// The tetrahedron whose smallest barycentric coordinate of x is the largest (the one that
// holds x, or on a shared face either neighbour, which interpolate alike); nullopt when x
// lies outside every tetrahedron by more than 1e-9 of its size.
std::optional<MeshPoint> locate(const TetMesh& mesh, const Point& x);

double longest_edge(const TetMesh& mesh);
double mesh_volume(const TetMesh& mesh);
double group_area(const TetMesh& mesh, const BoundaryGroup& group);

}  // namespace solvent::helmholtz
