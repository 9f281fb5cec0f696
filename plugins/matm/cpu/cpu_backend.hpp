#pragma once
// The vector work of MATM on the CPU, shared-memory parallel with OpenMP: the triangular
// sweeps run as a wavefront over the grid lines (j, k) with j + k constant, each line
// solved in order along i. Every inner product is a sum of whole-line sums, each formed in
// order along its line and added exactly (ExactSum), so every thread count, and every
// number of ranks, gives the same numbers.
//
// Over ranks (SplitStencil over a distributed Stencil7) the same work runs on the rank's
// block: products after a halo exchange, sweeps pipelined over the ranks by fragments of
// axis 1 (RankLinks), line sums added exactly over the ranks.
#include "src/rank_links.hpp"

#include <solvent/parameters.hpp>
#include <solvent_matm/iteration.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace solvent::matm {

class CpuBackend final : public MatmBackend {
 public:
  // threads: 0 takes all OpenMP offers. fragments: how many pieces of axis 1 a sweep is
  // pipelined in over ranks (ignored on one rank; 0 takes RankLinks' default); pipelined:
  // false for the "block" coupling (RankLinks).
  CpuBackend(const SplitStencil& a, std::span<const double> f, std::span<double> x, int threads,
             int fragments, bool pipelined);
  // Writes the last iterate into x.
  ~CpuBackend() override;

  bool self_adjoint() const override { return self_adjoint_; }
  double rhs_norm2() override;
  double update_and_residual(double tau) override;
  double omega_from_residual() override;
  Dots correction(double omega) override;
  void precondition(double omega) override;

  // Over ranks: the fragments a sweep is cut into, the seconds spent in sweeps, and the part
  // of them spent waiting for a neighbour's strips (the pipeline's fill and drain, and any
  // imbalance); on one rank 1, the sweep seconds and 0.
  int fragments() const { return fragments_; }
  double sweep_seconds() const { return sweep_s_; }
  double wait_seconds() const { return wait_s_; }
  // Collective, over ranks with the pipeline and `fragments` 0: the link model (`known`, from
  // an earlier solve, or measured now), by which the sweeps after the first iteration's are
  // cut in RankLinks::fragments_for's count, from the rank's sweep work timed in that
  // iteration. The iterates do not depend on the cuts. Without a pipeline, nothing.
  std::optional<LinkFit> adapt_fragments(const std::optional<LinkFit>& known);

 private:
  // Fragment q of a sweep in its direction (RankLinks::fragment), the whole line where the
  // view has no ghost layer.
  std::pair<index_t, index_t> fragment(int q, bool forward) const;
  // (A0 v, A1 v) into z0 (and z1) with the four line sums of ProductSums into line_sums_.
  void apply(const double* v, bool with_a1);
  // y = (D + w R1)^-1 src.
  // slot >= 0: (D y, y) = (B^-1 src, src), line by line, into that slot of line_sums_.
  void lower_sweep(const double* src, double omega, int slot);
  // w = (D + w R2)^-1 D y.
  void upper_sweep(double omega);
  // The exact totals of the first `count` slots of line_sums_, over all ranks.
  std::vector<double> totals(int count);

  SplitView view_;
  // The split's, agreed by every rank: a rank with no node has no skew arrays to tell by.
  bool self_adjoint_;
  Box own_;
  std::span<double> x_out_;
  int threads_;
  // Over ranks: the sums' ranks, and the links to the neighbours where the view has a ghost
  // layer (not where this or another rank holds the whole grid).
  const Communicator* ranks_ = nullptr;
  std::optional<RankLinks> links_;
  int fragments_ = 1;
  bool default_fragments_ = false;  // fragments 0 was asked for
  std::optional<LinkFit> link_;     // while set, the count is still to be chosen
  int sweeps_ = 0;
  double sweep_s_ = 0.0, wait_s_ = 0.0;
  std::vector<double> f_, x_, r_, w_, y_, z0_, z1_, line_sums_;
};

// `threads`: the OpenMP threads of CpuBackend, in the schemas of both solvers that run it.
ParamSpec threads_parameter();

// The CPU's calibration for LinearSolver::measured_speed() (calibration.hpp) on `threads`
// threads; `solver` names the solver in messages.
double cpu_measured_speed(int threads, const std::string& solver);

// Number of threads OpenMP would use for `requested` (0 = all it has).
int cpu_threads(int requested);

}  // namespace solvent::matm
