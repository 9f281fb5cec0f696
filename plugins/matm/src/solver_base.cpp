#include <solvent_matm/solver_base.hpp>

#include <spdlog/spdlog.h>

#include <cmath>

namespace solvent::matm {

SolverBase::SolverBase(const PluginContext& ctx, std::string name)
    : log_(ctx.log), name_(std::move(name)), settings_(iteration_settings(ctx.params, name_)) {
  settings_.on_iteration = [this](std::int64_t k, double residual) {
    report_iteration(k, residual);
  };
  // An iteration over ranks: the halo exchanges of x before the residual and of w before the
  // correction's product, the two triangular sweeps' boundary planes (a face's worth of
  // values each, in fragments), and two sums (the residual's, the correction's products).
  state_exchanges({4, 2});
}

std::vector<OperatorForm> SolverBase::forms() const {
  return {{OperatorKind::Stencil7, ScalarKind::Real}};
}

const SolveStats& SolverBase::run(MatmBackend& backend) {
  last_ = iterate(backend, settings_);
  const SolveStats& st = last_->stats;
  if (log_ && settings_.given)
    log_->info("{}: {} after {} iterations, relative residual {:.3e}, given w = {:.4g}, tau = {:.4g}",
               name_, st.status, st.iterations, st.residual, settings_.omega, settings_.tau);
  else if (log_)
    log_->info(
        "{}: {} after {} iterations, relative residual {:.3e}, w = {:.4g}, s = {:.4g}, k = {:.4g}",
        name_, st.status, st.iterations, st.residual, last_->last.omega, std::sqrt(last_->last.s2),
        std::sqrt(last_->last.k2));
  return st;
}

Facts SolverBase::outcome() const { return last_ ? outcome_facts(*last_, settings_) : Facts{}; }

}  // namespace solvent::matm
