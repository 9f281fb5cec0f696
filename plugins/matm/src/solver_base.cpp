#include <solvent_matm/solver_base.hpp>

#include <spdlog/spdlog.h>

#include <cmath>

namespace solvent::matm {

SolverBase::SolverBase(const PluginContext& ctx, std::string name)
    : log_(ctx.log), name_(std::move(name)), settings_(iteration_settings(ctx.params)) {}

std::vector<OperatorForm> SolverBase::forms() const {
  return {{OperatorKind::Stencil7, ScalarKind::Real}};
}

const SolveStats& SolverBase::run(MatmBackend& backend) {
  last_ = iterate(backend, settings_);
  const SolveStats& st = last_->stats;
  if (log_)
    log_->info(
        "{}: {} after {} iterations, relative residual {:.3e}, w = {:.4g}, s = {:.4g}, k = {:.4g}",
        name_, st.status, st.iterations, st.residual, last_->last.omega, std::sqrt(last_->last.s2),
        std::sqrt(last_->last.k2));
  return st;
}

Facts SolverBase::outcome() const { return last_ ? outcome_facts(*last_) : Facts{}; }

}  // namespace solvent::matm
