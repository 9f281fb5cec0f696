#pragma once
// What the direct solvers (factor an operator once, substitute per right-hand side) share,
// written once: the factor-or-reuse skeleton, the factor storage of either scalar and the
// statistics of a solve. (The checks before a solve are LinearSolver::solve's, in the core.)
#include <solvent/linear_solver.hpp>

#include <solvent/errors.hpp>
#include <solvent/plugin.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

namespace solvent {

// One value per scalar type — factors, pivots' companions, work arrays — picked by T.
template <class Real, class Complex>
struct PerScalar {
  Real real{};
  Complex complex{};
  template <class T>
  auto& get() {
    if constexpr (scalar_kind_of<T> == ScalarKind::Real)
      return real;
    else
      return complex;
  }
};

// A direct solve's statistics: one step, converged. The residual is left NaN for the core to
// compute from the operator after the solve (SolverPolicy::verify_residual).
inline SolveStats direct_solve_stats() {
  SolveStats s;
  s.iterations = 1;
  s.converged = true;
  s.status = "direct solve";
  return s;
}

// Finite entries can overflow in an elimination (|a| near 1e308): LAPACK's factorisations go on
// with infinities, which the condition estimate and the substitution would then refuse by
// argument number. Throws SolverError "<plugin>: the elimination overflowed ..." instead.
template <class T>
void check_factors_finite(std::span<const T> factors, const char* plugin) {
  for (const T& v : factors)
    if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v)))
      throw SolverError(std::string(plugin) +
                        ": the elimination overflowed (a factor is infinite): the matrix's "
                        "entries are too large for double precision; rescale the system");
}

// What a direct solver's factorisations say of the operator's conditioning: LAPACK's estimate
// of the reciprocal condition number (gecon, gbcon) after each one. LU with partial pivoting
// is backward stable, so its x solves a system near the given one; past a condition number of
// 1/epsilon that x may share no digit with the given system's solution, and neither the
// factorisation (its pivots are not zero) nor the core's residual check can tell (a backward-
// stable x of a badly scaled but well-posed system can leave a residual above ||b|| as well).
// So the smallest estimate is a fact, "rcond_estimate", and an estimate below the machine
// epsilon is logged as a warning, once per solver.
class ConditionReport {
 public:
  // `plugin` names the solver in messages; `log` may be null (no warning then, the fact stays).
  ConditionReport(const char* plugin, std::shared_ptr<spdlog::logger> log)
      : plugin_(plugin), log_(std::move(log)) {}
  // After a factorisation, what LAPACK's `routine` (gecon, gbcon) returned: its `info`, and
  // the estimate `rcond` from the operator's norm `anorm`. A rejected argument is a
  // SolverError; a failed estimate, or a norm that overflowed, counts as 0 (as good as
  // singular for what the estimate is for).
  void note(const char* routine, int info, double anorm, double rcond);
  // "rcond_estimate" with the smallest estimate, where one was noted.
  void add_fact(Facts& f) const;

 private:
  const char* plugin_;
  std::shared_ptr<spdlog::logger> log_;
  double smallest_ = -1.0;  // none noted yet
  bool warned_ = false;
};

// The skeleton of every direct solver, written once: it reads `reuse_factorization`, decides
// when to factor (once at setup with reuse, at every solve without), counts factorisations,
// and reports both as facts. A solver keeps only its arithmetic:
//   load              check the operator (square, storage) and keep what it needs beside
//                     the factors (a copy on a device); at every setup, before factoring;
//   factor            factor the operator last loaded;
//   substitute        solve with the factors, for each scalar the solver's forms() offer;
//   factor_and_solve  without reuse, one solve from the operator: factor then substitute
//                     unless the solver fuses the two (elimination of [A | b]).
// The operator is whatever the core handed to setup, in one of the solver's forms.
class DirectSolver : public LinearSolver {
 public:
  // "factorizations", "reuse_factorization", then the solver's own.
  Facts facts() const final;

 protected:
  // Reads the parameter `reuse_factorization` (a boolean the solver's schema declares).
  explicit DirectSolver(const PluginContext& ctx);
  // For a solver whose presets decide it (a mode that implies one or the other).
  explicit DirectSolver(bool reuse_factorization) : reuse_(reuse_factorization) {}

  bool reuse() const { return reuse_; }
  const Operator& op() const { return *op_; }

  virtual void load(const Operator&) {}
  virtual void factor() = 0;
  virtual void substitute(std::span<const double> b, std::span<double> x);
  virtual void substitute(std::span<const complex> b, std::span<complex> x);
  virtual void factor_and_solve(std::span<const double> b, std::span<double> x);
  virtual void factor_and_solve(std::span<const complex> b, std::span<complex> x);
  virtual Facts more_facts() const { return {}; }

 private:
  void setup_impl(std::shared_ptr<const Operator> op) final;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) final;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) final;
  template <class T>
  SolveStats solve_as(std::span<const T> b, std::span<T> x);

  bool reuse_;
  std::shared_ptr<const Operator> op_;
  std::int64_t factorizations_ = 0;
};

}  // namespace solvent
