#pragma once
// What a MATM backend exchanges with the neighbouring ranks when the grid is split over
// axes 2 and 3 (SplitStencil's view over ranks: the block inside a ghost layer):
//   - the whole ghost layer of a field before a product (HaloExchange);
//   - one fragment of a triangular sweep's boundary planes, i in [i0, i1), received from the
//     neighbours the sweep comes from before the rank sweeps that fragment and sent on
//     to those it goes to after: the pipeline of Sukhinov et al., in which rank r starts
//     fragment f as soon as rank r - 1 has finished it;
//   - exact sums over all ranks.
#include <solvent/exact_sum.hpp>
#include <solvent/grid_blocks.hpp>
#include <solvent_matm/split_operator.hpp>

#include <span>
#include <vector>

namespace solvent::matm {

class RankLinks {
 public:
  explicit RankLinks(const GridBlock& block);

  void exchange(std::span<double> field) { halo_.exchange(field); }
  // forward: the lower sweep (from the lower neighbours of axes 2 and 3 to the upper
  // ones); otherwise the upper sweep, the other way.
  void receive_fragment(std::span<double> field, index_t i0, index_t i1, bool forward);
  void send_fragment(std::span<const double> field, index_t i0, index_t i1, bool forward);
  void sum(std::span<ExactSum> sums) const { sum_over_ranks(sums, comm_); }
  // The ranks a sweep passes through one after another: p2 + p3 - 1.
  int pipeline_depth() const { return depth_; }

 private:
  // Calls visit(n, at) for the n-th node of the strip i0 <= i < i1 of face `face`
  // (GridBlocks::neighbours order) at index `at` of the view: the block's own plane next to
  // the face, or the ghost plane beyond it.
  template <class Visit>
  void strip(int face, bool ghost, index_t i0, index_t i1, Visit&& visit) const;

  const Communicator& comm_;
  HaloExchange<double> halo_;
  index_t e_[3];
  int depth_;
  std::vector<double> buffer_;
};

}  // namespace solvent::matm
