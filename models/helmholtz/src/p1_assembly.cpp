#include <solvent_helmholtz/p1_assembly.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace solvent::helmholtz {
namespace {

// Volume and the gradients of the four barycentric functions of a tetrahedron.
struct TetGeometry {
  double volume;
  std::array<Point, 4> grad;
};

TetGeometry geometry(const TetMesh& mesh, const std::array<std::int32_t, 4>& t) {
  const Point& p0 = mesh.nodes[t[0]];
  const Point e1 = minus(mesh.nodes[t[1]], p0), e2 = minus(mesh.nodes[t[2]], p0),
              e3 = minus(mesh.nodes[t[3]], p0);
  // Rows of the inverse Jacobian are the cross products of its columns over det.
  const Point c23 = cross(e2, e3), c31 = cross(e3, e1), c12 = cross(e1, e2);
  const double det = dot(e1, c23), inv = 1.0 / det;
  TetGeometry g;
  g.volume = std::abs(det) / 6.0;
  for (int d = 0; d < 3; ++d) {
    g.grad[1][d] = c23[d] * inv;
    g.grad[2][d] = c31[d] * inv;
    g.grad[3][d] = c12[d] * inv;
    g.grad[0][d] = -(g.grad[1][d] + g.grad[2][d] + g.grad[3][d]);
  }
  return g;
}

double triangle_area(const TetMesh& mesh, const std::array<std::int32_t, 3>& t) {
  const Point& p0 = mesh.nodes[t[0]];
  const Point n = cross(minus(mesh.nodes[t[1]], p0), minus(mesh.nodes[t[2]], p0));
  return 0.5 * std::sqrt(dot(n, n));
}

// For every node, the tetrahedra it belongs to.
struct Incidence {
  std::vector<std::int64_t> start;
  std::vector<std::int32_t> tets;
};

Incidence node_tets(const TetMesh& mesh) {
  Incidence inc;
  const std::size_t n = mesh.nodes.size();
  inc.start.assign(n + 1, 0);
  for (const auto& t : mesh.tets)
    for (auto v : t) ++inc.start[v + 1];
  for (std::size_t i = 0; i < n; ++i) inc.start[i + 1] += inc.start[i];
  inc.tets.resize(inc.start[n]);
  auto next = inc.start;
  for (std::size_t e = 0; e < mesh.tets.size(); ++e)
    for (auto v : mesh.tets[e]) inc.tets[next[v]++] = static_cast<std::int32_t>(e);
  return inc;
}

std::vector<char> dirichlet_nodes(std::size_t n, const BoundaryConditions& bc) {
  std::vector<char> fixed(n, 0);
  for (const auto* g : bc.dirichlet)
    for (const auto& t : g->triangles)
      for (auto v : t) fixed[v] = 1;
  return fixed;
}

// The rows assembled: every node's, or a rank's own (ascending) over several ranks. Row q
// of the system is node node(q); local(i) is the row of node i, or -1 where it is not one.
struct Rows {
  std::span<const std::int32_t> subset;  // empty: all n nodes
  std::vector<std::int32_t> local_of;    // with a subset: n entries
  std::int64_t count(std::int64_t n) const {
    return subset.empty() ? n : static_cast<std::int64_t>(subset.size());
  }
  std::int32_t node(std::int64_t q) const {
    return subset.empty() ? static_cast<std::int32_t>(q) : subset[static_cast<std::size_t>(q)];
  }
  std::int32_t local(std::int32_t i) const {
    return subset.empty() ? i : local_of[static_cast<std::size_t>(i)];
  }
};

Rows rows_of(std::span<const std::int32_t> subset, std::size_t n) {
  Rows r{subset, {}};
  if (subset.empty()) return r;
  r.local_of.assign(n, -1);
  for (std::size_t q = 0; q < subset.size(); ++q)
    r.local_of[static_cast<std::size_t>(subset[q])] = static_cast<std::int32_t>(q);
  return r;
}

// Sparsity: row i couples to every node sharing a tetrahedron with it, except that a
// Dirichlet row holds only its diagonal and no free row keeps a Dirichlet column. Columns
// are node numbers.
void build_pattern(const TetMesh& mesh, const Incidence& inc, const std::vector<char>& fixed,
                   const Rows& rows, CsrMatrix<complex>& a) {
  const auto n = static_cast<std::int64_t>(mesh.nodes.size());
  const std::int64_t m = rows.count(n);
  std::vector<std::int64_t> count(m + 1, 0);
#pragma omp parallel
  {
    std::vector<std::int32_t> seen(n, -1);
#pragma omp for schedule(static)
    for (std::int64_t q = 0; q < m; ++q) {
      const std::int32_t i = rows.node(q);
      if (fixed[i]) {
        count[q + 1] = 1;
        continue;
      }
      std::int64_t c = 0;
      for (auto p = inc.start[i]; p < inc.start[i + 1]; ++p)
        for (auto j : mesh.tets[inc.tets[p]])
          if (!fixed[j] && seen[j] != i) {
            seen[j] = i;
            ++c;
          }
      count[q + 1] = c;
    }
  }
  for (std::int64_t q = 0; q < m; ++q) count[q + 1] += count[q];
  if (count[m] > std::numeric_limits<std::int32_t>::max())
    throw std::length_error("the matrix has more non-zeros than 32-bit CSR indices can address");
  a.rows = static_cast<std::size_t>(m);
  a.cols = static_cast<std::size_t>(n);
  a.row_ptr.assign(count.begin(), count.end());
  a.col_idx.resize(count[m]);
#pragma omp parallel
  {
    std::vector<std::int32_t> seen(n, -1);
#pragma omp for schedule(static)
    for (std::int64_t q = 0; q < m; ++q) {
      const std::int32_t i = rows.node(q);
      auto out = a.col_idx.begin() + a.row_ptr[q];
      if (fixed[i]) {
        *out = i;
        continue;
      }
      for (auto p = inc.start[i]; p < inc.start[i + 1]; ++p)
        for (auto j : mesh.tets[inc.tets[p]])
          if (!fixed[j] && seen[j] != i) {
            seen[j] = i;
            *out++ = j;
          }
      std::sort(a.col_idx.begin() + a.row_ptr[q], out);
    }
  }
}

// Position of column j in row q (the row is short and sorted).
std::int64_t position(const CsrMatrix<complex>& a, std::int32_t q, std::int32_t j) {
  auto first = a.col_idx.begin() + a.row_ptr[q], last = a.col_idx.begin() + a.row_ptr[q + 1];
  return std::lower_bound(first, last, j) - a.col_idx.begin();
}

// K - k^2 M row by row; contributions of Dirichlet columns move to the right-hand side.
void fill_volume_terms(const TetMesh& mesh, const Incidence& inc, const std::vector<char>& fixed,
                       const Rows& rows, double k, double g, HelmholtzSystem& s) {
  auto& a = s.matrix;
  const auto n = static_cast<std::int64_t>(mesh.nodes.size());
  const std::int64_t m = rows.count(n);
  const double k2 = k * k;
#pragma omp parallel
  {
    // Where each column of the current row sits in the value array.
    std::vector<std::int64_t> slot(n);
#pragma omp for schedule(static)
    for (std::int64_t q = 0; q < m; ++q) {
      const std::int32_t i = rows.node(q);
      for (auto p = a.row_ptr[q]; p < a.row_ptr[q + 1]; ++p) slot[a.col_idx[p]] = p;
      double diagonal_scale = 0.0;
      for (auto p = inc.start[i]; p < inc.start[i + 1]; ++p) {
        const auto& t = mesh.tets[inc.tets[p]];
        const TetGeometry geo = geometry(mesh, t);
        const int r = static_cast<int>(std::find(t.begin(), t.end(), i) - t.begin());
        for (int c = 0; c < 4; ++c) {
          const double stiffness = geo.volume * dot(geo.grad[r], geo.grad[c]);
          const double mass = geo.volume / 20.0 * (r == c ? 2.0 : 1.0);
          const double v = stiffness - k2 * mass;
          if (fixed[i]) {
            if (c == r) diagonal_scale += stiffness;
          } else if (fixed[t[c]]) {
            s.rhs[q] -= v * g;
          } else {
            a.values[slot[t[c]]] += v;
          }
        }
      }
      if (fixed[i]) {
        // Scaled like its neighbours' diagonals (by K_ii, which cannot vanish as
        // K_ii - k^2 M_ii can), so the identity row does not spoil the conditioning; the
        // right-hand side is scaled with it.
        a.values[a.row_ptr[q]] = diagonal_scale;
        s.rhs[q] = diagonal_scale * g;
      }
    }
  }
}

void add_boundary_terms(const TetMesh& mesh, const std::vector<char>& fixed, const Rows& rows,
                        double k, const BoundaryConditions& bc, HelmholtzSystem& s) {
  const complex ik(0.0, k);
  for (const auto* group : bc.impedance)
    for (const auto& t : group->triangles) {
      const double area = triangle_area(mesh, t);
      for (int r = 0; r < 3; ++r) {
        const std::int32_t q = rows.local(t[r]);
        if (fixed[t[r]] || q < 0) continue;
        for (int c = 0; c < 3; ++c) {
          const complex v = -ik * area / 12.0 * (r == c ? 2.0 : 1.0);
          if (fixed[t[c]])
            s.rhs[q] -= v * bc.dirichlet_value;
          else
            s.matrix.values[position(s.matrix, q, t[c])] += v;
        }
      }
    }
  for (const auto* group : bc.source)
    for (const auto& t : group->triangles) {
      const double share = bc.source_amplitude * triangle_area(mesh, t) / 3.0;
      for (auto v : t)
        if (!fixed[v] && rows.local(v) >= 0) s.rhs[rows.local(v)] += share;
    }
}

}  // namespace

HelmholtzSystem assemble_helmholtz(const TetMesh& mesh, double k, const BoundaryConditions& bc,
                                   std::span<const std::int32_t> rows) {
  HelmholtzSystem s;
  const std::vector<char> fixed = dirichlet_nodes(mesh.nodes.size(), bc);
  const Incidence inc = node_tets(mesh);
  const Rows r = rows_of(rows, mesh.nodes.size());
  build_pattern(mesh, inc, fixed, r, s.matrix);
  s.matrix.values.assign(s.matrix.col_idx.size(), complex{});
  s.rhs.assign(s.matrix.rows, complex{});
  fill_volume_terms(mesh, inc, fixed, r, k, bc.dirichlet_value, s);
  add_boundary_terms(mesh, fixed, r, k, bc, s);
  return s;
}

CsrMatrix<complex> helmholtz_pattern(const TetMesh& mesh, const BoundaryConditions& bc) {
  CsrMatrix<complex> a;
  build_pattern(mesh, node_tets(mesh), dirichlet_nodes(mesh.nodes.size(), bc),
                rows_of({}, mesh.nodes.size()), a);
  return a;
}

L2Error l2_error(const TetMesh& mesh, std::span<const complex> uh,
                 const std::function<complex(const Point&)>& exact) {
  constexpr double a = 0.5854101966249685, b = 0.1381966011250105;
  double error = 0.0, reference = 0.0;
  const auto n = static_cast<std::int64_t>(mesh.tets.size());
#pragma omp parallel for reduction(+ : error, reference) schedule(static)
  for (std::int64_t e = 0; e < n; ++e) {
    const auto& t = mesh.tets[e];
    const double w = geometry(mesh, t).volume / 4.0;
    for (int q = 0; q < 4; ++q) {
      Point x{};
      complex u{};
      for (int m = 0; m < 4; ++m) {
        const double lambda = m == q ? a : b;
        for (int d = 0; d < 3; ++d) x[d] += lambda * mesh.nodes[t[m]][d];
        u += lambda * uh[t[m]];
      }
      const complex ue = exact(x);
      error += w * std::norm(u - ue);
      reference += w * std::norm(ue);
    }
  }
  return {std::sqrt(error), std::sqrt(reference)};
}

std::optional<MeshPoint> locate(const TetMesh& mesh, const Point& x) {
  std::optional<MeshPoint> best;
  double best_min = -1e-9;
  for (const auto& t : mesh.tets) {
    const Point& p0 = mesh.nodes[t[0]];
    const Point e1 = minus(mesh.nodes[t[1]], p0), e2 = minus(mesh.nodes[t[2]], p0),
                e3 = minus(mesh.nodes[t[3]], p0), r = minus(x, p0);
    const double det = dot(e1, cross(e2, e3));
    // Cramer's rule for r = l1 e1 + l2 e2 + l3 e3.
    const double l1 = dot(r, cross(e2, e3)) / det, l2 = dot(e1, cross(r, e3)) / det,
                 l3 = dot(e1, cross(e2, r)) / det;
    const std::array<double, 4> w{1.0 - l1 - l2 - l3, l1, l2, l3};
    const double smallest = *std::min_element(w.begin(), w.end());
    if (smallest > best_min) {
      best_min = smallest;
      best = MeshPoint{t, w};
    }
  }
  return best;
}

double longest_edge(const TetMesh& mesh) {
  double h2 = 0.0;
  const auto n = static_cast<std::int64_t>(mesh.tets.size());
#pragma omp parallel for reduction(max : h2) schedule(static)
  for (std::int64_t e = 0; e < n; ++e) {
    const auto& t = mesh.tets[e];
    for (int p = 0; p < 4; ++p)
      for (int q = p + 1; q < 4; ++q) {
        const Point d = minus(mesh.nodes[t[p]], mesh.nodes[t[q]]);
        h2 = std::max(h2, dot(d, d));
      }
  }
  return std::sqrt(h2);
}

double mesh_volume(const TetMesh& mesh) {
  double v = 0.0;
  for (const auto& t : mesh.tets) v += geometry(mesh, t).volume;
  return v;
}

double group_area(const TetMesh& mesh, const BoundaryGroup& group) {
  double area = 0.0;
  for (const auto& t : group.triangles) area += triangle_area(mesh, t);
  return area;
}

}  // namespace solvent::helmholtz
