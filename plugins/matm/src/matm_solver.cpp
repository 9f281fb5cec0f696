#include "matm_solver.hpp"

#include "cpu_backend.hpp"

#include <spdlog/spdlog.h>

#include <cmath>

namespace solvent::matm {

Schema matm_schema() {
  Schema s = iteration_schema();
  s.push_back(ParamSpec::integer("threads", 0, "OpenMP threads; 0 takes all OpenMP offers").at_least(0.0));
  return s;
}

MatmSolver::MatmSolver(const PluginContext& ctx)
    : log_(ctx.log),
      settings_(iteration_settings(ctx.params)),
      threads_(cpu_threads(static_cast<int>(ctx.params.integer("threads")))) {}

bool MatmSolver::accepts(OperatorKind kind, ScalarKind scalar) const {
  return kind == OperatorKind::Stencil7 && scalar == ScalarKind::Real;
}

void MatmSolver::setup(std::shared_ptr<const Operator> op) {
  const auto* a = std::get_if<Stencil7<double>>(op.get());
  if (!a) throw UnsupportedOperator("matm: takes a real Stencil7 operator only");
  split_.emplace(*a, "matm");
  if (log_)
    log_->info("matm: {} x {} x {} grid, {} active nodes, {}, {} thread(s)", split_->n1(), split_->n2(),
               split_->n3(), split_->active_nodes(),
               split_->self_adjoint() ? "self-adjoint (k = 0)" : "non-self-adjoint", threads_);
}

SolveStats MatmSolver::solve(std::span<const double> b, std::span<double> x) {
  if (!split_) throw SolverError("matm: solve() before setup()");
  if (b.size() != split_->size() || x.size() != split_->size())
    throw SolverError("matm: vector length differs from the grid size");
  CpuBackend backend(*split_, b, x, threads_);
  last_ = iterate(backend, settings_);
  const SolveStats& st = last_->stats;
  if (log_)
    log_->info("matm: {} after {} iterations, relative residual {:.3e}, w = {:.4g}, s = {:.4g}, k = {:.4g}",
               st.status, st.iterations, st.residual, last_->last.omega, std::sqrt(last_->last.s2),
               std::sqrt(last_->last.k2));
  return st;
}

Facts MatmSolver::facts() const {
  Facts f{{"threads", std::to_string(threads_)}};
  if (split_) f.push_back({"self_adjoint", split_->self_adjoint() ? "true" : "false"});
  if (last_)
    for (auto& kv : outcome_facts(*last_)) f.push_back(kv);
  return f;
}

}  // namespace solvent::matm
