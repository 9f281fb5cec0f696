#pragma once
// Builds the split A = A0 + A1 (split_operator.hpp) from a Stencil7 and refuses the
// operators MATM cannot take, each with one message that names the node.
//
// On one rank the view is the grid itself. Over several ranks (a distributed Stencil7) it is
// the rank's block inside one ghost layer of its neighbours' nodes, their coefficients
// brought by halo exchanges (ViewCoefficients): every coupling across a block face is then
// in the view, so the node formulas, and the sweeps reading ghost values the pipeline
// delivers, give each of the rank's nodes the bits one rank gives it. Ghost nodes on the grid's boundary
// are inactive (c0 = 0), as the nodes beyond the grid are. Where one rank holds every node
// (a balance by speed gave the others none), no rank has a neighbour, and every view is the
// block alone, as on one rank: its lines start where one rank's do, and the ranks only add
// their sums.
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/host_array.hpp>
#include <solvent/stencil7.hpp>
#include <solvent_matm/split_operator.hpp>

#include <array>
#include <memory>
#include <string>

namespace solvent::matm {

class ViewCoefficients;  // split_stencil.cpp: the view's coefficient arrays, one at a time

class SplitStencil {
 public:
  // Throws SolverError (messages start with `who`): a dimension below 3, a negative or
  // non-finite diagonal, a non-finite coupling, or a symmetric part A0 that is not
  // diagonally dominant after the scaling D^-1/2 A0 D^-1/2 (then A0 need not be positive
  // definite, which MATM needs: B is built from it and tau divides by (A0 w, w)); over
  // ranks, a split of axis 1, along which the sweeps are pipelined in fragments, unless
  // axis1_split (matm-cuda's sweeps from GPU to GPU, which hand values on along every axis).
  // Nodes are named by their global coordinates.
  SplitStencil(const Stencil7<double>& a, const std::string& who, bool axis1_split = false);

  // Why the sweeps pipelined along axis 1 cannot follow `blocks` (a split of axis 1), empty
  // when they can: matm's rule for its blocks, checked before setup.
  static std::string axis1_problem(const GridBlocks& blocks);

  SplitView view() const;
  // The same on every rank (a rank with no node has no skew part to tell by).
  bool self_adjoint() const { return self_adjoint_; }
  std::size_t size() const { return c0_.size(); }
  const Box& own() const { return own_; }
  // The rank's block, null on one rank.
  const GridBlock* block() const { return block_.get(); }
  // Whether the view has a ghost layer: over ranks, unless one rank holds every node. The
  // same on every rank, so the ranks agree on the exchanges and collectives that go with it.
  bool has_ghost_layer() const { return own_.lo[0] == 1; }
  // The global grid's extents and active nodes (summed over ranks).
  std::array<std::size_t, 3> grid() const { return grid_; }
  std::size_t active_nodes() const { return active_; }
  const HostArray<double>& c0() const { return c0_; }
  const HostArray<double>& lower(int d) const { return lower_[d]; }
  const HostArray<double>& skew(int d) const { return skew_[d]; }

 private:
  // Over ranks: the block inside its ghost layer, after refusing a split of axis 1.
  void split_block(const Stencil7<double>& a, const std::string& who, bool axis1_split);
  // a: the view's coefficients; origin: the global coordinates of its node (0, 0, 0). own_
  // is set first: a view with a ghost layer leaves the ghost rows' checks to their owners.
  void split(ViewCoefficients& a, const std::string& who, const std::array<index_t, 3>& origin);

  std::shared_ptr<const GridBlock> block_;
  std::array<std::size_t, 3> grid_{};
  std::size_t n1_ = 0, n2_ = 0, n3_ = 0, active_ = 0;
  bool self_adjoint_ = true;
  Box own_;
  HostArray<double> c0_;
  std::array<HostArray<double>, 3> lower_, skew_;
};

}  // namespace solvent::matm
