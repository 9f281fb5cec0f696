#include "cpu/matm_solver.hpp"

#include "cpu/cpu_backend.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace solvent::matm {

Schema matm_schema() {
  Schema s = iteration_schema();
  s.push_back(threads_parameter());
  s.push_back(fragments_parameter());
  s.push_back(coupling_parameter());
  return s;
}

MatmSolver::MatmSolver(const PluginContext& ctx)
    : SolverBase(ctx, "matm"),
      threads_(cpu_threads(static_cast<int>(ctx.params.integer("threads")))),
      fragments_(static_cast<int>(ctx.params.integer("fragments"))),
      pipelined_(ctx.params.string("coupling") == "pipeline") {
  refuse_blocks(&SplitStencil::axis1_problem);
}

void MatmSolver::setup_impl(std::shared_ptr<const Operator> op) {
  split_.emplace(std::get<Stencil7<double>>(*op), name_);
  if (log_)
    log_->info("matm: {} x {} x {} grid, {} active nodes, {}, {} thread(s)", split_->grid()[0],
               split_->grid()[1], split_->grid()[2], split_->active_nodes(),
               split_->self_adjoint() ? "self-adjoint (k = 0)" : "non-self-adjoint", threads_);
}

SolveStats MatmSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  CpuBackend backend(*split_, b, x, threads_, fragments_, pipelined_);
  link_ = backend.adapt_fragments(link_);  // measured in the first solve, kept for the others
  const SolveStats& st = run(backend);
  // The slowest rank's: the pipeline is as slow as it.
  pipeline_ = {double(backend.fragments()), backend.sweep_seconds(), backend.wait_seconds()};
  if (split_->block()) split_->block()->comm->max(std::span<double>(pipeline_).subspan(1));
  return st;
}

double MatmSolver::measured_speed() { return cpu_measured_speed(threads_, name_); }

Facts MatmSolver::facts() const {
  Facts f{{"threads", std::to_string(threads_)}};
  if (split_) f.push_back({"self_adjoint", split_->self_adjoint() ? "true" : "false"});
  for (auto& kv : outcome()) f.push_back(kv);
  if (split_ && split_->block()) {
    f.push_back({"ghost_layer", split_->has_ghost_layer() ? "true" : "false"});
    f.push_back({"coupling", pipelined_ ? "pipeline" : "block"});
    f.push_back({"fragments", fmt::format("{}", pipeline_[0])});
    f.push_back({"sweep_seconds", fmt::format("{:.4g}", pipeline_[1])});
    f.push_back({"sweep_wait_seconds", fmt::format("{:.4g}", pipeline_[2])});
    if (link_) {
      f.push_back({"fragments_from", "link model"});
      f.push_back({"link_latency_us", fmt::format("{:.4g}", 1e6 * link_->latency_s)});
      f.push_back({"link_gb_per_s", fmt::format("{:.4g}", link_->seconds_per_byte > 0.0
                                                               ? 1e-9 / link_->seconds_per_byte
                                                               : 0.0)});
    }
  }
  return f;
}

}  // namespace solvent::matm
