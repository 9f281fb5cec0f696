#include "cpu/matm_solver.hpp"

#include "cpu/cpu_backend.hpp"

#include <spdlog/spdlog.h>

namespace solvent::matm {

Schema matm_schema() {
  Schema s = iteration_schema();
  // Narrowed to int for OpenMP; 4096 is above the hardware threads of any one host, so a
  // larger value is a typo rather than a request.
  s.push_back(ParamSpec::integer("threads", 0, "OpenMP threads; 0 takes all OpenMP offers")
                  .at_least(0.0)
                  .at_most(4096));
  return s;
}

MatmSolver::MatmSolver(const PluginContext& ctx)
    : SolverBase(ctx, "matm"),
      threads_(cpu_threads(static_cast<int>(ctx.params.integer("threads")))) {}

void MatmSolver::setup_impl(std::shared_ptr<const Operator> op) {
  split_.emplace(std::get<Stencil7<double>>(*op), name_);
  if (log_)
    log_->info("matm: {} x {} x {} grid, {} active nodes, {}, {} thread(s)", split_->n1(),
               split_->n2(), split_->n3(), split_->active_nodes(),
               split_->self_adjoint() ? "self-adjoint (k = 0)" : "non-self-adjoint", threads_);
}

SolveStats MatmSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  CpuBackend backend(*split_, b, x, threads_);
  return run(backend);
}

Facts MatmSolver::facts() const {
  Facts f{{"threads", std::to_string(threads_)}};
  if (split_) f.push_back({"self_adjoint", split_->self_adjoint() ? "true" : "false"});
  for (auto& kv : outcome()) f.push_back(kv);
  return f;
}

}  // namespace solvent::matm
