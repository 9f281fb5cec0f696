#include "cuda/cusolver_solver.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace solvent::dense {

CusolverSolver::CusolverSolver(const PluginContext& context)
    : reuse_(context.params.boolean("reuse_factorization")),
      device_(static_cast<int>(context.params.integer("device"))),
      log_(context.log) {}

std::vector<OperatorForm> CusolverSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}};
}

void CusolverSolver::setup_impl(std::shared_ptr<const Operator> op) {
  const auto* dense = &std::get<DenseMatrix<double>>(*op);
  if (dense->rows != dense->cols) {
    throw SolverError(
        fmt::format("cusolver: matrix is {} x {}, not square", dense->rows, dense->cols));
  }
  if (!lu_) {
    lu_ = std::make_unique<CusolverLu>(device_, reuse_);
    if (log_) log_->info("cusolver on {}: reuse_factorization={}", lu_->device_name(), reuse_);
  }
  op_ = std::move(op);
  n_ = dense->rows;
  lu_->setup(dense->values.data(), n_);
  totals_.factor_ms += lu_->last_times().factor_ms;
}

SolveStats CusolverSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  lu_->solve(b.data(), x.data());
  totals_.factor_ms += lu_->last_times().factor_ms;
  totals_.solve_ms += lu_->last_times().solve_ms;
  ++solves_;
  return direct_solve_stats();
}

Facts CusolverSolver::facts() const {
  Facts f{{"reuse_factorization", reuse_ ? "true" : "false"}, {"solves", std::to_string(solves_)}};
  if (!lu_) return f;
  f.insert(f.end(), {{"device", lu_->device_name()},
                     {"factor_ms_total", fmt::format("{:.3f}", totals_.factor_ms)},
                     {"solve_ms_total", fmt::format("{:.3f}", totals_.solve_ms)},
                     {"last_factor_ms", fmt::format("{:.4f}", lu_->last_times().factor_ms)},
                     {"last_solve_ms", fmt::format("{:.4f}", lu_->last_times().solve_ms)}});
  return f;
}

}  // namespace solvent::dense
