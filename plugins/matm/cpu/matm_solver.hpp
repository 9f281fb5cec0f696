#pragma once
// `matm`: the modified alternating-triangular method (Sukhinov et al.) on the CPU.
#include <solvent_matm/solver_base.hpp>
#include <solvent_matm/split_stencil.hpp>
#include "src/rank_links.hpp"

#include <array>
#include <optional>

namespace solvent::matm {

class MatmSolver final : public SolverBase {
 public:
  explicit MatmSolver(const PluginContext& ctx);

  Facts facts() const override;
  // One iteration's correction on calibration_stencil(), timed on this rank's threads.
  double measured_speed() override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  using LinearSolver::solve_impl;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;

 private:
  int threads_;
  int fragments_;
  bool pipelined_;  // coupling = "pipeline"
  // Of the last solve over ranks: fragments, sweep seconds, of them waiting (each the
  // slowest rank's).
  std::array<double, 3> pipeline_{};
  // With fragments 0 over a pipeline: the ranks' links, measured in the first solve.
  std::optional<LinkFit> link_;
  std::optional<SplitStencil> split_;
};

Schema matm_schema();

}  // namespace solvent::matm
