#pragma once
// The seven-point operator as MATM sees it (Sukhinov et al., eq. 3-4): A = A0 + A1 with A0 the
// symmetric part, from which the preconditioner is built, and A1 the skew-symmetric part.
//
// Both parts are stored by the coupling of node m to its lower neighbour m - s_d in each
// direction d (s = 1, n1, n1 n2), in the sign convention of the canonical form:
//   A0(m, m - s_d) = A0(m - s_d, m) = -lower[d][m]
//   A1(m, m - s_d) = -skew[d][m],   A1(m - s_d, m) = +skew[d][m]
// The coupling to the upper neighbour m + s_d is therefore lower[d][m + s_d]. Inactive
// nodes (c0 = 0) hold u = 0; every coupling that touches one, or leaves the grid, is 0.
//
// Plain pointers, so the same view describes host vectors (CPU solver) and device
// buffers (CUDA solver), and the node formulas below run unchanged on both.
#include <solvent/device/host_device.hpp>

namespace solvent::matm {

using index_t = long long;

struct SplitView {
  index_t n1 = 0, n2 = 0, n3 = 0;
  const double* c0 = nullptr;
  const double* lower[3] = {nullptr, nullptr, nullptr};
  const double* skew[3] = {nullptr, nullptr, nullptr};  // all nullptr when A1 = 0

  SOLVENT_HD index_t size() const { return n1 * n2 * n3; }
  SOLVENT_HD index_t index(index_t i, index_t j, index_t k) const { return i + n1 * (j + n2 * k); }
  SOLVENT_HD bool self_adjoint() const { return skew[0] == nullptr; }
};

// The nodes of a view this rank solves for: lo[d] <= coordinate < hi[d] along axis d (a
// plain struct, so device kernels take it by value too).
struct Box {
  index_t lo[3] = {0, 0, 0};
  index_t hi[3] = {0, 0, 0};
};

// The lines of axis 1 in a box, numbered l = (j - lo2) + width (k - lo3): how the CPU loops
// and the CUDA kernels deal the rank's lines out.
struct Lines {
  index_t lo2, lo3, width, count;
  SOLVENT_HD explicit Lines(const Box& b)
      : lo2(b.lo[1]),
        lo3(b.lo[2]),
        width(b.hi[1] - b.lo[1]),
        count((b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2])) {}
  SOLVENT_HD index_t j(index_t l) const { return lo2 + l % width; }
  SOLVENT_HD index_t k(index_t l) const { return lo3 + l / width; }
};

// A vector read through a functor, so a kernel can apply the operator to x - tau w
// without storing it first.
struct Values {
  const double* v;
  SOLVENT_HD double operator()(index_t m) const { return v[m]; }
};

struct UpdatedValues {  // x - tau w, the MATM step (eq. 5) applied on the fly
  const double* x;
  const double* w;
  double tau;
  SOLVENT_HD double operator()(index_t m) const { return x[m] - tau * w[m]; }
};

// (A0 v)(m), (R2 v)(m) with R2 = the upper triangle of A0 plus half its diagonal, and
// (A1 v)(m), at node (i, j, k).
struct NodeProducts {
  double a0 = 0.0;
  double r2 = 0.0;
  double a1 = 0.0;
};

// A node's neighbours in A0: per direction d, the coupling and the value of v at m - s_d and
// at m + s_d; both 0 where the neighbour is off the view.
struct Neighbours {
  double lower_c[3] = {0.0, 0.0, 0.0}, lower_v[3] = {0.0, 0.0, 0.0};
  double upper_c[3] = {0.0, 0.0, 0.0}, upper_v[3] = {0.0, 0.0, 0.0};
};

// (A0 v)(m) and (R2 v)(m) from the node's own diagonal and value and its neighbours (a1 = 0):
// the arithmetic of apply_node, shared with the GPU sweep that forms A0 w on the fly.
SOLVENT_HD inline NodeProducts symmetric_products(double c0, double vm, const Neighbours& n) {
  NodeProducts p;
  if (c0 == 0.0) return p;
  double lower_sum = 0.0, upper_sum = 0.0;
  for (int d = 0; d < 3; ++d) {
    lower_sum += n.lower_c[d] * n.lower_v[d];
    upper_sum += n.upper_c[d] * n.upper_v[d];
  }
  p.a0 = c0 * vm - lower_sum - upper_sum;
  p.r2 = 0.5 * c0 * vm - upper_sum;
  return p;
}

template <class Field>
SOLVENT_HD inline NodeProducts apply_node(const SplitView& s, const Field& v, index_t i, index_t j,
                                          index_t k) {
  const index_t m = s.index(i, j, k);
  const double c0 = s.c0[m];
  if (c0 == 0.0) return {};
  const index_t stride[3] = {1, s.n1, s.n1 * s.n2};
  const bool has_lower[3] = {i > 0, j > 0, k > 0};
  const bool has_upper[3] = {i + 1 < s.n1, j + 1 < s.n2, k + 1 < s.n3};
  Neighbours n;
  double skew_sum = 0.0;
  for (int d = 0; d < 3; ++d) {
    if (has_lower[d]) {
      n.lower_c[d] = s.lower[d][m];
      n.lower_v[d] = v(m - stride[d]);
      if (s.skew[d]) skew_sum -= s.skew[d][m] * n.lower_v[d];
    }
    if (has_upper[d]) {
      n.upper_c[d] = s.lower[d][m + stride[d]];
      n.upper_v[d] = v(m + stride[d]);
      if (s.skew[d]) skew_sum += s.skew[d][m + stride[d]] * n.upper_v[d];
    }
  }
  NodeProducts p = symmetric_products(c0, v(m), n);
  p.a1 = skew_sum;
  return p;
}

// The inner products eq. (5) takes from v, A0 v and R2 v (and r), summed node by node:
// (D v, v), (D^-1 R2 v, R2 v), (A0 v, v), (r, v).
struct ProductSums {
  double d_v_v = 0.0, r2_v = 0.0, a0_v_v = 0.0, r_v = 0.0;

  SOLVENT_HD void add(double c0, double v, const NodeProducts& p, double r) {
    if (c0 == 0.0) return;
    d_v_v += c0 * v * v;
    r2_v += p.r2 * p.r2 / c0;
    a0_v_v += p.a0 * v;
    r_v += r * v;
  }
};

// One node of a triangular sweep of the preconditioner B = (D + w R1) D^-1 (D + w R2):
//   lower, (D + w R1) y = r:    y(m) = (r(m) + w sum_d lower[d][m] y(m - s_d)) / ((1 + w/2) c0)
//   upper, (D + w R2) v = D y:  v(m) = (c0 y(m) + w sum_d lower[d][m + s_d] v(m + s_d)) / ((1 +
//   w/2) c0)
// in two parts: the factors the node's own data give (sweep_factors: the division and the
// couplings scaled by it, which the GPU forms before the values of the neighbours are known),
//   out(m) = q0 + a_y out(m -+ s_y) + a_z out(m -+ s_z) + beta out(m -+ 1),
// and the node itself (sweep_node). The x-neighbour term is left out and returned as a
// factor: out(m) = q + beta out(m -+ 1), which the CPU evaluates in order and the GPU by a
// scan over affine maps.
struct Affine {
  double q = 0.0;
  double beta = 0.0;
};

struct SweepFactors {
  double q0 = 0.0, a_y = 0.0, a_z = 0.0, beta = 0.0;
};

SOLVENT_HD inline SweepFactors sweep_factors(double c0, double source, double cx, double cy,
                                             double cz, double omega) {
  if (c0 == 0.0) return {};
  const double inv = 1.0 / ((1.0 + 0.5 * omega) * c0), w_inv = omega * inv;
  return {source * inv, cy * w_inv, cz * w_inv, cx * w_inv};
}

SOLVENT_HD inline Affine sweep_node(const SweepFactors& f, double y_y, double y_z) {
  return {f.q0 + f.a_y * y_y + f.a_z * y_z, f.beta};
}

}  // namespace solvent::matm
