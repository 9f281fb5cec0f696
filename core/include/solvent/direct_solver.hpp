#pragma once
// What the direct solvers (factor an operator once, substitute per right-hand side) share,
// written once: the checks before a solve, the factor storage of either scalar, and the
// statistics of a solve.
#include <solvent/errors.hpp>
#include <solvent/linear_solver.hpp>

#include <string>

namespace solvent {

// Before a direct solve of scalar T: setup() came first, and b and x have the operator's
// scalar type and size. Messages start with the solver's name.
template <class T>
void check_direct_solve(const Operator* op, std::size_t b_size, std::size_t x_size,
                        const std::string& solver) {
  if (op == nullptr) throw SolverError(solver + ": solve() before setup()");
  if (scalar_of(*op) != scalar_kind_of<T>)
    throw UnsupportedOperator(solver + ": right-hand side and matrix have different scalar types");
  const std::size_t n = rows_of(*op);
  if (b_size != n || x_size != n)
    throw SolverError(solver + ": vector length " + std::to_string(b_size) + " for a " +
                      std::to_string(n) + " x " + std::to_string(n) + " matrix");
}

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

// A direct solve's statistics: one step, converged. The residual is not formed (NaN: the
// record says "not computed"); the conformance kit checks the solution itself.
inline SolveStats direct_solve_stats() {
  SolveStats s;
  s.iterations = 1;
  s.converged = true;
  s.status = "direct solve";
  return s;
}

}  // namespace solvent
