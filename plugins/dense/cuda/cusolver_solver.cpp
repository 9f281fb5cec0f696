#include "cuda/cusolver_solver.hpp"
#include "src/square_matrix.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace solvent::dense {

CusolverSolver::CusolverSolver(const PluginContext& context)
    : DirectSolver(context),
      device_(static_cast<int>(context.params.integer("device"))),
      log_(context.log) {}

std::vector<OperatorForm> CusolverSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}};
}

void CusolverSolver::load(const Operator& op) {
  const std::size_t n = square_order(op, "cusolver");
  if (!lu_) {
    lu_ = std::make_unique<CusolverLu>(device_, reuse());
    if (log_) log_->info("cusolver on {}: reuse_factorization={}", lu_->device_name(), reuse());
  }
  lu_->load(std::get<DenseMatrix<double>>(op).values.data(), n);
}

void CusolverSolver::factor() {
  lu_->factor();
  totals_.factor_ms += lu_->last_times().factor_ms;
}

// Without reuse the device refactors from its copy of the matrix inside solve().
void CusolverSolver::factor_and_solve(std::span<const double> b, std::span<double> x) {
  substitute(b, x);
}

void CusolverSolver::substitute(std::span<const double> b, std::span<double> x) {
  lu_->solve(b.data(), x.data());
  totals_.factor_ms += lu_->last_times().factor_ms;
  totals_.solve_ms += lu_->last_times().solve_ms;
  ++solves_;
}

Facts CusolverSolver::more_facts() const {
  Facts f{{"solves", std::to_string(solves_)}};
  if (!lu_) return f;
  f.insert(f.end(), {{"device", lu_->device_name()},
                     {"factor_ms_total", fmt::format("{:.3f}", totals_.factor_ms)},
                     {"solve_ms_total", fmt::format("{:.3f}", totals_.solve_ms)},
                     {"last_factor_ms", fmt::format("{:.4f}", lu_->last_times().factor_ms)},
                     {"last_solve_ms", fmt::format("{:.4f}", lu_->last_times().solve_ms)}});
  return f;
}

}  // namespace solvent::dense
