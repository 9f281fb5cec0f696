#include "fallback_linear_solver.hpp"

#include <solvent/errors.hpp>

namespace solvent {

FallbackLinearSolver::FallbackLinearSolver(std::shared_ptr<LinearSolver> primary, Factory fallback,
                                           std::function<void(const std::string&)> on_switch)
    : active_(std::move(primary)),
      fallback_(std::move(fallback)),
      on_switch_(std::move(on_switch)) {}

bool FallbackLinearSolver::accepts(OperatorKind kind, ScalarKind scalar) const {
  return active_->accepts(kind, scalar);
}

void FallbackLinearSolver::setup(std::shared_ptr<const Operator> op) {
  try {
    active_->setup(op);
  } catch (const DeviceUnavailable& e) {
    if (!fallback_) throw;
    active_ = fallback_();
    fallback_ = nullptr;
    on_switch_(e.what());
    if (!active_->accepts(kind_of(*op), scalar_of(*op)))
      throw UnsupportedOperator("the fallback linear solver does not accept this operator");
    active_->setup(op);
  }
}

SolveStats FallbackLinearSolver::solve(std::span<const double> b, std::span<double> x) {
  return active_->solve(b, x);
}
SolveStats FallbackLinearSolver::solve(std::span<const complex> b, std::span<complex> x) {
  return active_->solve(b, x);
}

}  // namespace solvent
