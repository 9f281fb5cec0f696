#include "jacobi_solver.hpp"

#include "operator_rows.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace acme {

using solvent::OperatorKind;
using solvent::ScalarKind;
using solvent::SolveStats;

JacobiSolver::JacobiSolver(const solvent::PluginContext& ctx)
    : tolerance_(ctx.params.real("tolerance")),
      max_iterations_(ctx.params.integer("max_iterations")),
      weight_(ctx.params.real("weight")),
      log_(ctx.log) {}

bool JacobiSolver::accepts(OperatorKind kind, ScalarKind) const {
  return kind == OperatorKind::Dense || kind == OperatorKind::Csr;
}

void JacobiSolver::setup(std::shared_ptr<const solvent::Operator> op) {
  // The diagonal is all Jacobi prepares; it is inverted once here, not in every sweep.
  if (solvent::scalar_of(*op) == ScalarKind::Real)
    diagonal_real_ = diagonal_of<double>(*op);
  else
    diagonal_complex_ = diagonal_of<solvent::complex>(*op);
  op_ = std::move(op);
}

template <class T>
SolveStats JacobiSolver::iterate(std::span<const T> b, std::span<T> x,
                                 const std::vector<T>& diagonal) {
  if (!op_) throw solvent::SolverError("acme-jacobi: solve() before setup()");
  if (solvent::scalar_of(*op_) != solvent::scalar_kind_of<T>)
    throw solvent::UnsupportedOperator(
        fmt::format("acme-jacobi: a {} right-hand side for a {} matrix",
                    solvent::to_string(solvent::scalar_kind_of<T>),
                    solvent::to_string(solvent::scalar_of(*op_))));
  const std::size_t n = diagonal.size();
  if (b.size() != n || x.size() != n)
    throw solvent::SolverError(
        fmt::format("acme-jacobi: vector length {} for a {} x {} matrix", b.size(), n, n));
  double bnorm = 0.0;
  for (const auto& v : b) bnorm += std::norm(v);
  bnorm = std::sqrt(bnorm);
  SolveStats stats;
  if (bnorm == 0.0) {
    std::fill(x.begin(), x.end(), T{});
    stats.converged = true;
    stats.status = "converged";
    return stats;
  }
  std::vector<T> r(n), best(x.begin(), x.end());
  double best_residual = residual<T>(*op_, b, x, r) / bnorm;
  stats.residual_history.push_back(best_residual);
  double current = best_residual;
  stats.status = "max_iterations";
  while (current > tolerance_ && stats.iterations < max_iterations_) {
    for (std::size_t i = 0; i < n; ++i) x[i] += weight_ * r[i] / diagonal[i];
    ++stats.iterations;
    current = residual<T>(*op_, b, x, r) / bnorm;
    stats.residual_history.push_back(current);
    if (!std::isfinite(current)) {
      stats.status = "diverged: non-finite residual";
      break;
    }
    // The iteration need not reduce the residual monotonically: keep the best iterate.
    if (current < best_residual) {
      best_residual = current;
      std::copy(x.begin(), x.end(), best.begin());
    }
  }
  stats.converged = best_residual <= tolerance_;
  if (stats.converged) stats.status = "converged";
  std::copy(best.begin(), best.end(), x.begin());
  stats.residual = best_residual;
  total_iterations_ += stats.iterations;
  ++solves_;
  log_->debug("acme-jacobi: {} after {} iterations, relative residual {:.3e}", stats.status,
              stats.iterations, stats.residual);
  return stats;
}

SolveStats JacobiSolver::solve(std::span<const double> b, std::span<double> x) {
  return iterate(b, x, diagonal_real_);
}

SolveStats JacobiSolver::solve(std::span<const solvent::complex> b, std::span<solvent::complex> x) {
  return iterate(b, x, diagonal_complex_);
}

solvent::Facts JacobiSolver::facts() const {
  return {{"solves", std::to_string(solves_)},
          {"iterations", std::to_string(total_iterations_)},
          {"tolerance", fmt::format("{:g}", tolerance_)},
          {"weight", fmt::format("{:g}", weight_)}};
}

}  // namespace acme
