#include "run/fallback_linear_solver.hpp"

#include <solvent/errors.hpp>

namespace solvent {

FallbackLinearSolver::FallbackLinearSolver(std::shared_ptr<LinearSolver> primary, Factory fallback,
                                           std::function<void(const std::string&)> on_switch)
    : active_(std::move(primary)),
      fallback_(std::move(fallback)),
      on_switch_(std::move(on_switch)) {}

void FallbackLinearSolver::setup_impl(std::shared_ptr<const Operator> op) {
  try {
    active_->setup(op);
  } catch (const DeviceUnavailable& e) {
    if (!fallback_) throw;
    active_ = fallback_();
    fallback_ = nullptr;
    on_switch_(e.what());
    active_->setup(op);
  }
}

SolveStats FallbackLinearSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return active_->solve(b, x);
}
SolveStats FallbackLinearSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return active_->solve(b, x);
}

}  // namespace solvent
