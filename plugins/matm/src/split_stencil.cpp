#include <solvent/errors.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <cmath>
#include <sstream>

namespace solvent::matm {
namespace {

std::string node_name(std::size_t m, std::size_t n1, std::size_t n2) {
  std::ostringstream s;
  s << "(" << m % n1 << ", " << (m / n1) % n2 << ", " << m / (n1 * n2) << ")";
  return s.str();
}

}  // namespace

SplitStencil::SplitStencil(const Stencil7<double>& a, const std::string& who)
    : n1_(a.n1), n2_(a.n2), n3_(a.n3) {
  if (n1_ < 3 || n2_ < 3 || n3_ < 3) {
    std::ostringstream s;
    s << who << ": grid " << n1_ << " x " << n2_ << " x " << n3_
      << ": every dimension must be at least 3 (a layer of boundary nodes on each side)";
    throw SolverError(s.str());
  }
  const std::size_t n = a.size();
  for (const auto& c : a.c)
    if (c.size() != n)
      throw SolverError(who + ": a coefficient array of the Stencil7 has the wrong length");

  c0_.assign(n, 0.0);
  for (std::size_t m = 0; m < n; ++m) {
    const double c = a.c[0][m];
    if (!std::isfinite(c) || c < 0.0) {
      std::ostringstream s;
      s << who << ": c0 = " << c << " at node " << node_name(m, n1_, n2_)
        << "; MATM needs c0 > 0 on every active node (c0 = 0 marks an inactive node)";
      throw SolverError(s.str());
    }
    c0_[m] = c;
    if (c > 0.0) ++active_;
  }

  // The coupling of m to its neighbour in slot `slot` (1..6), 0 where that neighbour is
  // outside the grid or either node is inactive (u = 0 there).
  const std::size_t stride[3] = {1, n1_, n1_ * n2_};
  const std::size_t extent[3] = {n1_, n2_, n3_};
  auto coordinate = [&](std::size_t m, int d) { return (m / stride[d]) % extent[d]; };
  auto coupling = [&](std::size_t m, int d, bool upper) -> double {
    const std::size_t c = coordinate(m, d);
    if (c0_[m] == 0.0 || (upper ? c + 1 >= extent[d] : c == 0)) return 0.0;
    const std::size_t nb = upper ? m + stride[d] : m - stride[d];
    if (c0_[nb] == 0.0) return 0.0;
    const double v = a.c[2 * d + (upper ? 2 : 1)][m];
    if (!std::isfinite(v)) {
      std::ostringstream s;
      s << who << ": non-finite coupling c" << 2 * d + (upper ? 2 : 1) << " = " << v << " at node "
        << node_name(m, n1_, n2_);
      throw SolverError(s.str());
    }
    return v;
  };

  bool skew_free = true;
  for (int d = 0; d < 3; ++d) {
    lower_[d].assign(n, 0.0);
    skew_[d].assign(n, 0.0);
    for (std::size_t m = 0; m < n; ++m) {
      if (coordinate(m, d) == 0) continue;
      const double down = coupling(m, d, false);           // A(m, m - s) = -down
      const double up = coupling(m - stride[d], d, true);  // A(m - s, m) = -up
      lower_[d][m] = 0.5 * (down + up);
      skew_[d][m] = 0.5 * (down - up);
      skew_free = skew_free && skew_[d][m] == 0.0;
    }
  }
  if (skew_free)
    for (auto& v : skew_) std::vector<double>().swap(v);

  // Weak diagonal dominance of D^-1/2 A0 D^-1/2 (unit diagonal) makes A0 positive
  // semi-definite (definite once each connected part has a strictly dominant row, such as
  // a node next to a Dirichlet boundary), whatever the scaling of the rows.
  for (std::size_t m = 0; m < n; ++m) {
    if (c0_[m] == 0.0) continue;
    double off = 0.0;
    for (int d = 0; d < 3; ++d) {
      if (lower_[d][m] != 0.0)
        off += std::abs(lower_[d][m]) / std::sqrt(c0_[m] * c0_[m - stride[d]]);
      if (coordinate(m, d) + 1 < extent[d] && lower_[d][m + stride[d]] != 0.0)
        off += std::abs(lower_[d][m + stride[d]]) / std::sqrt(c0_[m] * c0_[m + stride[d]]);
    }
    if (off > 1.0 + 1e-12) {
      std::ostringstream s;
      s << who << ": the symmetric part of the operator is not diagonally dominant at node "
        << node_name(m, n1_, n2_) << ": sum of |a0(m, n)| / sqrt(c0(m) c0(n)) = " << off
        << " > 1; MATM builds its preconditioner from that part and needs it positive definite";
      throw SolverError(s.str());
    }
  }
}

SplitView SplitStencil::view() const {
  SplitView v;
  v.n1 = static_cast<index_t>(n1_);
  v.n2 = static_cast<index_t>(n2_);
  v.n3 = static_cast<index_t>(n3_);
  v.c0 = c0_.data();
  for (int d = 0; d < 3; ++d) {
    v.lower[d] = lower_[d].data();
    v.skew[d] = self_adjoint() ? nullptr : skew_[d].data();
  }
  return v;
}

}  // namespace solvent::matm
