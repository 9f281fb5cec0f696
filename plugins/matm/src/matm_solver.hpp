#pragma once
// `matm`: the modified alternating-triangular method (seed 001) on the CPU.
#include <solvent/matm/iteration.hpp>
#include <solvent/matm/split_stencil.hpp>
#include <solvent/solvent.hpp>

#include <memory>
#include <optional>

namespace solvent::matm {

class MatmSolver final : public LinearSolver {
 public:
  explicit MatmSolver(const PluginContext& ctx);

  bool accepts(OperatorKind kind, ScalarKind scalar) const override;
  void setup(std::shared_ptr<const Operator> op) override;
  using LinearSolver::solve;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;
  Facts facts() const override;

 private:
  std::shared_ptr<spdlog::logger> log_;
  IterationSettings settings_;
  int threads_;
  std::optional<SplitStencil> split_;
  std::optional<Outcome> last_;
};

Schema matm_schema();

}  // namespace solvent::matm
