#pragma once
// Wraps a device linear solver and, when it reports no device at setup, replaces it by
// the configured CPU solver (logged, and recorded in the run record).
#include <solvent/linear_solver.hpp>

#include <functional>
#include <memory>

namespace solvent {

class FallbackLinearSolver : public LinearSolver {
 public:
  using Factory = std::function<std::shared_ptr<LinearSolver>()>;
  FallbackLinearSolver(std::shared_ptr<LinearSolver> primary, Factory fallback,
                       std::function<void(const std::string&)> on_switch);

  bool accepts(OperatorKind kind, ScalarKind scalar) const override;
  void setup(std::shared_ptr<const Operator> op) override;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;
  SolveStats solve(std::span<const complex> b, std::span<complex> x) override;
  Facts facts() const override { return active_->facts(); }

 private:
  std::shared_ptr<LinearSolver> active_;
  Factory fallback_;
  std::function<void(const std::string&)> on_switch_;
};

}  // namespace solvent
