#include "jacobi_solver.hpp"

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

std::vector<solvent::OperatorForm> JacobiSolver::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real}, {OperatorKind::Csr, ScalarKind::Complex}};
}

namespace {
// The diagonal, checked once here rather than in every sweep: Jacobi divides by it.
template <class T>
std::vector<T> diagonal_of(const solvent::CsrMatrix<T>& a) {
  std::vector<T> d(a.rows, T{});
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (std::size_t(a.col_idx[std::size_t(k)]) == i) d[i] = a.values[std::size_t(k)];
    if (d[i] == T{})
      throw solvent::SolverError(fmt::format(
          "acme-jacobi: zero diagonal entry in row {}; Jacobi divides by the diagonal", i));
  }
  return d;
}

// r = b - A x; returns ||r||_2.
template <class T>
double residual(const solvent::Operator& a, std::span<const T> b, std::span<const T> x,
                std::span<T> r) {
  solvent::apply(a, x, r);
  double norm2 = 0.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    r[i] = b[i] - r[i];
    norm2 += std::norm(r[i]);
  }
  return std::sqrt(norm2);
}
}  // namespace

void JacobiSolver::setup_impl(std::shared_ptr<const solvent::Operator> op) {
  if (solvent::scalar_of(*op) == ScalarKind::Real)
    diagonal_real_ = diagonal_of(std::get<solvent::CsrMatrix<double>>(*op));
  else
    diagonal_complex_ = diagonal_of(std::get<solvent::CsrMatrix<solvent::complex>>(*op));
  op_ = std::move(op);
}

template <class T>
SolveStats JacobiSolver::iterate(std::span<const T> b, std::span<T> x,
                                 const std::vector<T>& diagonal) {
  // The core checked setup-before-solve, the scalar type and the lengths.
  const std::size_t n = diagonal.size();
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

SolveStats JacobiSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return iterate(b, x, diagonal_real_);
}

SolveStats JacobiSolver::solve_impl(std::span<const solvent::complex> b, std::span<solvent::complex> x) {
  return iterate(b, x, diagonal_complex_);
}

solvent::Facts JacobiSolver::facts() const {
  return {{"solves", std::to_string(solves_)},
          {"iterations", std::to_string(total_iterations_)},
          {"tolerance", fmt::format("{:g}", tolerance_)},
          {"weight", fmt::format("{:g}", weight_)}};
}

}  // namespace acme
