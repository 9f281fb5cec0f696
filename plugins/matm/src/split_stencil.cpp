#include <solvent/errors.hpp>
#include <solvent/numerics/vector_kernel.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <sstream>
#include <vector>

namespace solvent::matm {

// The view's coefficient arrays, one at a time. On one rank they are the stencil's own. Over
// ranks, coefficient q is the block's array inside one ghost layer holding the neighbours'
// values across each face (HaloExchange's ghost layout; a face on the grid's boundary stays 0,
// inactive), copied into one of two scratch arrays that every coefficient reuses: the split
// reads two at a time (a node's coupling down and the one up), and an extended copy of all
// seven made each rank fault and clear seven more arrays of the view's size (the split of a
// 192^3 grid over 2 ranks of this 2-core machine took 0.81 s, against 0.25-0.37 s on one).
class ViewCoefficients {
 public:
  ViewCoefficients(const Stencil7<double>& a, bool ghost_layer)
      : a_(a),
        extent_{ghost_layer ? a.n1 + 2 : a.n1, ghost_layer ? a.n2 + 2 : a.n2,
                ghost_layer ? a.n3 + 2 : a.n3} {
    if (ghost_layer) halo_.emplace(*a.block);
  }
  std::array<std::size_t, 3> extent() const { return extent_; }
  std::size_t size() const { return extent_[0] * extent_[1] * extent_[2]; }
  // Coefficient q laid out on the view, held in `slot` (0 or 1) until that slot takes another.
  const double* get(int q, int slot) {
    if (!halo_) return a_.c[q].data();
    auto& scratch = scratch_[slot];
    if (loaded_[slot] == q) return scratch.data();
    if (scratch.size() == 0) scratch = HostArray<double>(size());
    const auto layers = static_cast<std::ptrdiff_t>(a_.n3);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t kk = 0; kk < layers; ++kk) {
      const auto k = static_cast<std::size_t>(kk);
      for (std::size_t j = 0; j < a_.n2; ++j)
        std::copy_n(&a_.c[q][a_.index(0, j, k)], a_.n1,
                    &scratch[1 + extent_[0] * ((j + 1) + extent_[1] * (k + 1))]);
    }
    halo_->exchange(std::span<double>(scratch.data(), scratch.size()));
    loaded_[slot] = q;
    return scratch.data();
  }

 private:
  const Stencil7<double>& a_;
  std::array<std::size_t, 3> extent_;
  std::optional<HaloExchange<double>> halo_;
  std::array<HostArray<double>, 2> scratch_;
  std::array<int, 2> loaded_{-1, -1};
};

namespace {

// The line kernels below run over the nodes of one line (its values contiguous) with no
// branch per node: the node-by-node passes with a branch per coupling and a checked sqrt per
// term were 85 % of the split's time. add_scaled_coupling, which holds the square roots and
// divisions, is vectorized (see CMakeLists.txt for the flags it needs). Each computes what the
// node-by-node formulas did, in the same order, so every value keeps its bits; a check that
// fails on a line is then found node by node, as before.

// The couplings of nodes [first, last) of a line (index m) to their neighbours m - s along
// one axis, 0 where either node is inactive: the coupling down of m and the coupling up of
// m - s. lower (half their sum) or skew (half their difference) is stored; returns whether
// every coupling read is finite, and `same` whether each pair is equal (no skew part).
SOLVENT_VECTOR_KERNEL bool line_couplings(const double* c0, const double* down, const double* up,
                                          std::size_t s, std::size_t first, std::size_t last,
                                          double* lower, double* skew, bool& same) {
  bool ok = true, equal = true;
  for (std::size_t m = first; m < last; ++m) {
    const bool pair = c0[m] != 0.0 && c0[m - s] != 0.0;
    const double dn = pair ? down[m] : 0.0;
    const double upv = pair ? up[m - s] : 0.0;
    ok = ok & std::isfinite(dn) & std::isfinite(upv);
    equal = equal & (dn == upv);
    if (lower) lower[m] = 0.5 * (dn + upv);
    if (skew) skew[m] = 0.5 * (dn - upv);
  }
  same = equal;
  return ok;
}

// off[i] += |a0| / sqrt(c0(m) c0(n)) for the nodes m = first + i, i < count, and their
// neighbours n = m + shift, where the coupling a0 (the lower array's entry at m or at n) is
// not 0; else +0, so that the sum keeps the bits of off_diagonal's conditional one.
SOLVENT_VECTOR_KERNEL void add_scaled_coupling(const double* c0, const double* a0,
                                               std::ptrdiff_t shift, std::size_t first,
                                               std::size_t count, double* off) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t m = first + i;
    const double a = a0[i];
    const double term = std::abs(a) / std::sqrt(c0[m] * c0[m + shift]);
    off[i] += a != 0.0 ? term : 0.0;
  }
}

// Whether a node m = first + i, i < count, that is active has off[i] > limit.
SOLVENT_VECTOR_KERNEL bool any_above(const double* c0, const double* off, std::size_t first,
                                     std::size_t count, double limit) {
  bool above = false;
  for (std::size_t i = 0; i < count; ++i)
    above = above | ((c0[first + i] != 0.0) & (off[i] > limit));
  return above;
}

// Whether more than one rank's block holds nodes (a balance by speed may give ranks none).
bool held_by_several_ranks(const GridBlocks& blocks) {
  int holders = 0;
  for (int r = 0; r < blocks.ranks(); ++r) holders += blocks.empty(r) ? 0 : 1;
  return holders > 1;
}

}  // namespace

SplitStencil::SplitStencil(const Stencil7<double>& a, const std::string& who, bool axis1_split)
    : grid_{a.n1, a.n2, a.n3} {
  if (a.distributed()) {
    block_ = a.block;
    const auto& nodes = block_->blocks.nodes;
    grid_ = {static_cast<std::size_t>(nodes[0]), static_cast<std::size_t>(nodes[1]),
             static_cast<std::size_t>(nodes[2])};
  }
  if (grid_[0] < 3 || grid_[1] < 3 || grid_[2] < 3) {
    std::ostringstream s;
    s << who << ": grid " << grid_[0] << " x " << grid_[1] << " x " << grid_[2]
      << ": every dimension must be at least 3 (a layer of boundary nodes on each side)";
    throw SolverError(s.str());
  }
  for (const auto& c : a.c)
    if (c.size() != a.size())
      throw SolverError(who + ": a coefficient array of the Stencil7 has the wrong length");
  if (block_ && held_by_several_ranks(block_->blocks)) {
    split_block(a, who, axis1_split);
  } else {
    // One rank, or over ranks one block that holds every node (the others hold none): the
    // view is the block alone. With a ghost layer its lines started one value off one rank's
    // alignment, and a GPU holding the whole grid beside CPU ranks given no block took 4-6 %
    // longer an iteration than the GPU alone (docs/scaling.md).
    const auto origin = block_ ? block_->offset() : GridBlocks::Index3{0, 0, 0};
    own_ = {{0, 0, 0}, {index_t(a.n1), index_t(a.n2), index_t(a.n3)}};
    ViewCoefficients coefficients(a, false);
    split(coefficients, who, {origin[0], origin[1], origin[2]});
  }
  // The active nodes this rank solves for (a view with a ghost layer has ghosts), over all
  // ranks.
  std::size_t active = 0;
#pragma omp parallel for schedule(static) reduction(+ : active)
  for (index_t k = own_.lo[2]; k < own_.hi[2]; ++k)
    for (index_t j = own_.lo[1]; j < own_.hi[1]; ++j)
      for (index_t i = own_.lo[0]; i < own_.hi[0]; ++i)
        if (c0_[static_cast<std::size_t>(i + index_t(n1_) * (j + index_t(n2_) * k))] > 0.0)
          ++active;
  active_ = active;
  if (block_) {
    double count = static_cast<double>(active_);
    block_->comm->sum(std::span<double>(&count, 1));
    active_ = static_cast<std::size_t>(count);
  }
}

std::string SplitStencil::axis1_problem(const GridBlocks& blocks) {
  if (blocks.split[0] == 1) return {};
  std::ostringstream s;
  s << "over ranks the triangular sweeps are pipelined along axis 1, which must not be split "
    << "(the grid is split " << blocks.split[0] << "x" << blocks.split[1] << "x" << blocks.split[2]
    << "); split axes 2 and 3 (model.split = \"auto\" does), or run matm-cuda with a GPU per "
    << "rank on one host, whose sweeps go from GPU to GPU";
  return s.str();
}

void SplitStencil::split_block(const Stencil7<double>& a, const std::string& who,
                               bool axis1_split) {
  if (const auto why = axis1_problem(block_->blocks); !why.empty() && !axis1_split)
    throw SolverError(who + ": " + why);
  const auto offset = block_->offset();
  own_ = {{1, 1, 1}, {index_t(a.n1) + 1, index_t(a.n2) + 1, index_t(a.n3) + 1}};
  ViewCoefficients coefficients(a, true);
  split(coefficients, who, {offset[0] - 1, offset[1] - 1, offset[2] - 1});
}

void SplitStencil::split(ViewCoefficients& a, const std::string& who,
                         const std::array<index_t, 3>& origin) {
  n1_ = a.extent()[0];
  n2_ = a.extent()[1];
  n3_ = a.extent()[2];
  auto node_name = [&](std::size_t m) {
    std::ostringstream s;
    s << "(" << index_t(m % n1_) + origin[0] << ", " << index_t((m / n1_) % n2_) + origin[1] << ", "
      << index_t(m / (n1_ * n2_)) + origin[2] << ")";
    return s.str();
  };
  const std::size_t n = a.size();
  // Every loop below is elementwise and runs over the layers in parallel (the split of a
  // 384^3 grid took longer than its solve on a GPU, node by node), with the node's
  // coordinates from the loops rather than divided out of its index; a check that fails
  // reports the first failing node in node order, as one pass would, by taking the smallest
  // failing index over the threads and building its message there alone.
  const std::size_t stride[3] = {1, n1_, n1_ * n2_};
  const std::size_t extent[3] = {n1_, n2_, n3_};
  const auto layers = static_cast<std::ptrdiff_t>(n3_);
  // f(m, {i, j, k}) for every node, layers in parallel; `reduction` clauses come with it.
  auto nodes_of_layer = [&](std::ptrdiff_t kk, auto&& f) {
    const auto k = static_cast<std::size_t>(kk);
    for (std::size_t j = 0; j < n2_; ++j) {
      std::size_t m = stride[2] * k + stride[1] * j;
      for (std::size_t i = 0; i < n1_; ++i, ++m) f(m, std::array<std::size_t, 3>{i, j, k});
    }
  };
  constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
  c0_ = HostArray<double>(n);
  const double* diagonal = a.get(0, 0);
  std::size_t bad = none;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (std::ptrdiff_t kk = 0; kk < layers; ++kk)
    nodes_of_layer(kk, [&](std::size_t m, const std::array<std::size_t, 3>&) {
      const double c = diagonal[m];
      c0_[m] = c;
      if (!std::isfinite(c) || c < 0.0) bad = std::min(bad, m);
    });
  if (bad != none) {
    std::ostringstream s;
    s << who << ": c0 = " << diagonal[bad] << " at node " << node_name(bad)
      << "; MATM needs c0 > 0 on every active node (c0 = 0 marks an inactive node)";
    throw SolverError(s.str());
  }

  // The coupling arrays of axis d: c[2d + 1] (down) and c[2d + 2] (up).
  struct Couplings {
    int d;
    const double* down;
    const double* up;
  };
  auto couplings = [&](int d) { return Couplings{d, a.get(2 * d + 1, 0), a.get(2 * d + 2, 1)}; };
  // The coupling of m (coordinate c along x.d) to its neighbour along that axis, 0 where that
  // neighbour is outside the grid or either node is inactive (u = 0 there); NaN where the
  // coefficient is not finite, which the caller reports.
  auto coupling = [&](const Couplings& x, std::size_t m, std::size_t c, bool upper) -> double {
    if (c0_[m] == 0.0 || (upper ? c + 1 >= extent[x.d] : c == 0)) return 0.0;
    const std::size_t nb = upper ? m + stride[x.d] : m - stride[x.d];
    if (c0_[nb] == 0.0) return 0.0;
    return upper ? x.up[m] : x.down[m];
  };
  auto non_finite = [&](const Couplings& x, std::size_t m, bool upper) {
    std::ostringstream s;
    s << who << ": non-finite coupling c" << 2 * x.d + (upper ? 2 : 1) << " = "
      << (upper ? x.up[m] : x.down[m]) << " at node " << node_name(m);
    return SolverError(s.str());
  };

  // Along axis d, each line's nodes with a neighbour below: all but the first along axis 0,
  // none on a line at coordinate 0 of axes 1 or 2. f(first, last) for each such line, the
  // lines of a layer in order, layers in parallel (`reduction` clauses come with the loop).
  auto lines_with_neighbour_below = [&](int d, std::ptrdiff_t kk, auto&& f) {
    const auto k = static_cast<std::size_t>(kk);
    if (d == 2 && k == 0) return;
    for (std::size_t j = d == 1 ? 1 : 0; j < n2_; ++j) {
      const std::size_t m0 = stride[2] * k + stride[1] * j;
      f(m0 + (d == 0 ? 1 : 0), m0 + n1_);
    }
  };
  // The first node in node order whose coupling down (A(m, m - s) = -down) or the coupling up
  // of the node below (A(m - s, m) = -up) is not finite, in [first, last) of a line.
  auto first_non_finite = [&](const Couplings& x, std::size_t first, std::size_t last) {
    for (std::size_t m = first; m < last; ++m) {
      const std::size_t c = (m / stride[x.d]) % extent[x.d];
      if (!std::isfinite(coupling(x, m, c, false)) ||
          !std::isfinite(coupling(x, m - stride[x.d], c - 1, true)))
        return m;
    }
    return none;
  };

  // A1 is stored only where it is not 0 on some rank: the arrays of a self-adjoint operator
  // would be three grids of zeros, allocated and written for nothing.
  bool skew_free = true;
  for (int d = 0; d < 3; ++d) {
    lower_[d] = HostArray<double>(n);
    const Couplings x = couplings(d);
    bool free_d = true;
    bad = none;
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(&& : free_d)
    for (std::ptrdiff_t kk = 0; kk < layers; ++kk)
      lines_with_neighbour_below(d, kk, [&](std::size_t first, std::size_t last) {
        bool same = true;
        if (!line_couplings(c0_.data(), x.down, x.up, stride[d], first, last, lower_[d].data(),
                            nullptr, same))
          bad = std::min(bad, first_non_finite(x, first, last));
        free_d = free_d && same;
      });
    if (bad != none) {
      const std::size_t c = (bad / stride[d]) % extent[d];
      const bool down_finite = std::isfinite(coupling(x, bad, c, false));
      throw non_finite(x, down_finite ? bad - stride[d] : bad, down_finite);
    }
    skew_free = skew_free && free_d;
  }
  // Over ranks every rank must agree, or one would sweep with A1 and another without.
  if (block_) {
    double skew = skew_free ? 0.0 : 1.0;
    block_->comm->max(std::span<double>(&skew, 1));
    skew_free = skew == 0.0;
  }
  self_adjoint_ = skew_free;
  for (int d = 0; d < 3 && !skew_free; ++d) {
    skew_[d] = HostArray<double>(n);
    const Couplings x = couplings(d);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t kk = 0; kk < layers; ++kk)
      lines_with_neighbour_below(d, kk, [&](std::size_t first, std::size_t last) {
        bool same = true;
        line_couplings(c0_.data(), x.down, x.up, stride[d], first, last, nullptr, skew_[d].data(),
                       same);
      });
  }

  // Weak diagonal dominance of D^-1/2 A0 D^-1/2 (unit diagonal) makes A0 positive
  // semi-definite (definite once each connected part has a strictly dominant row, such as
  // a node next to a Dirichlet boundary), whatever the scaling of the rows. A ghost node's
  // row is its owner's to check: here it lacks the couplings within its own block.
  auto off_diagonal = [&](std::size_t m, const std::array<std::size_t, 3>& at) {
    double off = 0.0;
    for (int d = 0; d < 3; ++d) {
      if (lower_[d][m] != 0.0)
        off += std::abs(lower_[d][m]) / std::sqrt(c0_[m] * c0_[m - stride[d]]);
      if (at[static_cast<std::size_t>(d)] + 1 < extent[d] && lower_[d][m + stride[d]] != 0.0)
        off += std::abs(lower_[d][m + stride[d]]) / std::sqrt(c0_[m] * c0_[m + stride[d]]);
    }
    return off;
  };
  auto coordinates = [&](std::size_t m) {
    return std::array<std::size_t, 3>{m % n1_, (m / n1_) % n2_, m / (n1_ * n2_)};
  };
  constexpr double limit = 1.0 + 1e-12;
  auto above = [&](std::size_t m, const std::array<std::size_t, 3>& at) {
    return c0_[m] != 0.0 && off_diagonal(m, at) > limit;
  };
  bad = none;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (std::ptrdiff_t kk = 0; kk < layers; ++kk) {
    const auto k = static_cast<std::size_t>(kk);
    // The sums of a line's nodes between its first and last (both neighbours along axis 0
    // in the line), one term after another in off_diagonal's order; the first and last
    // nodes node by node.
    std::vector<double> off(n1_ - 2);
    const std::size_t count = n1_ - 2;
    for (std::size_t j = 0; j < n2_; ++j) {
      if (has_ghost_layer() && (j == 0 || j + 1 == n2_ || k == 0 || k + 1 == n3_)) continue;
      const std::size_t m0 = stride[2] * k + stride[1] * j, first = m0 + 1;
      const bool below[3] = {true, j > 0, k > 0}, beyond[3] = {true, j + 1 < n2_, k + 1 < n3_};
      std::fill(off.begin(), off.end(), 0.0);
      for (int d = 0; d < 3; ++d) {
        const auto s = static_cast<std::ptrdiff_t>(stride[d]);
        if (below[d])
          add_scaled_coupling(c0_.data(), lower_[d].data() + first, -s, first, count, off.data());
        if (beyond[d])
          add_scaled_coupling(c0_.data(), lower_[d].data() + first + stride[d], s, first, count,
                              off.data());
      }
      if (above(m0, {0, j, k}) || any_above(c0_.data(), off.data(), first, count, limit) ||
          above(m0 + n1_ - 1, {n1_ - 1, j, k}))
        for (std::size_t i = 0; i < n1_; ++i)
          if (above(m0 + i, {i, j, k})) {
            bad = std::min(bad, m0 + i);
            break;
          }
    }
  }
  if (bad != none) {
    std::ostringstream s;
    s << who << ": the symmetric part of the operator is not diagonally dominant at node "
      << node_name(bad)
      << ": sum of |a0(m, n)| / sqrt(c0(m) c0(n)) = " << off_diagonal(bad, coordinates(bad))
      << " > 1; MATM builds its preconditioner from that part and needs it positive definite";
    throw SolverError(s.str());
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
