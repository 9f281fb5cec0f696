#pragma once
// What the direct solvers (factor an operator once, substitute per right-hand side) share,
// written once: the factor storage of either scalar and the statistics of a solve. (The
// checks before a solve are LinearSolver::solve's, in the core.)
#include <solvent/linear_solver.hpp>

#include <string>

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

}  // namespace solvent
