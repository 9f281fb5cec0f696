#pragma once
// Wraps a device linear solver and, when it reports no device at setup, replaces it by
// the configured CPU solver (logged, and recorded in the run record). The fallback runs
// without the configured preconditioner, which lives in the lost device's memory.
#include <solvent/linear_solver.hpp>

#include <functional>
#include <memory>

namespace solvent {

class FallbackLinearSolver : public LinearSolver {
 public:
  using Factory = std::function<std::shared_ptr<LinearSolver>()>;
  FallbackLinearSolver(std::shared_ptr<LinearSolver> primary, Factory fallback,
                       std::function<void(const std::string&)> on_switch);

  std::vector<OperatorForm> forms() const override { return active_->forms(); }
  bool uses_preconditioner() const override { return active_->uses_preconditioner(); }
  Facts facts() const override { return active_->facts(); }

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override;

 private:
  std::shared_ptr<LinearSolver> active_;
  Factory fallback_;
  std::function<void(const std::string&)> on_switch_;
};

}  // namespace solvent
