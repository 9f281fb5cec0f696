#include <solvent/direct_solver.hpp>
#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <spdlog/logger.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace solvent {

DirectSolver::DirectSolver(const PluginContext& ctx)
    : reuse_(ctx.params.boolean("reuse_factorization")) {}

void DirectSolver::setup_impl(std::shared_ptr<const Operator> op) {
  load(*op);
  op_ = std::move(op);
  if (!reuse_) return;
  factor();
  ++factorizations_;
}

template <class T>
SolveStats DirectSolver::solve_as(std::span<const T> b, std::span<T> x) {
  if (reuse_) {
    substitute(b, x);
  } else {
    // Counted before the solve: a factorisation that fails (a singular pivot) was made.
    ++factorizations_;
    factor_and_solve(b, x);
  }
  return direct_solve_stats();
}

SolveStats DirectSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return solve_as(b, x);
}
SolveStats DirectSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return solve_as(b, x);
}

// A solver whose forms() offer one scalar never sees the other: the core refuses it first.
void DirectSolver::substitute(std::span<const double>, std::span<double>) {
  throw UnsupportedOperator("this linear solver does not solve real systems");
}
void DirectSolver::substitute(std::span<const complex>, std::span<complex>) {
  throw UnsupportedOperator("this linear solver does not solve complex systems");
}

void DirectSolver::factor_and_solve(std::span<const double> b, std::span<double> x) {
  factor();
  substitute(b, x);
}
void DirectSolver::factor_and_solve(std::span<const complex> b, std::span<complex> x) {
  factor();
  substitute(b, x);
}

void ConditionReport::note(const char* routine, int info, double anorm, double rcond) {
  const bool estimated = info == 0 && std::isfinite(anorm);
  if (info < 0 && std::isfinite(anorm))
    throw SolverError(fmt::format("{}: {} rejected argument {}", plugin_, routine, -info));
  if (!estimated) rcond = 0.0;
  smallest_ = smallest_ < 0.0 ? rcond : std::min(smallest_, rcond);
  if (rcond >= std::numeric_limits<double>::epsilon() || warned_ || log_ == nullptr) return;
  log_->warn(
      "{}: the matrix is singular to working precision (reciprocal condition number estimate "
      "{:.2e}, below the machine epsilon): the solution may have no correct digit, whatever its "
      "residual",
      plugin_, rcond);
  warned_ = true;
}

void ConditionReport::add_fact(Facts& f) const {
  if (smallest_ >= 0.0) f.emplace_back("rcond_estimate", fmt::format("{:.3e}", smallest_));
}

Facts DirectSolver::facts() const {
  Facts f{{"factorizations", std::to_string(factorizations_)},
          {"reuse_factorization", reuse_ ? "true" : "false"}};
  for (auto& fact : more_facts()) f.push_back(std::move(fact));
  return f;
}

}  // namespace solvent
