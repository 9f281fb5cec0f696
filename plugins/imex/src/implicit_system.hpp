#pragma once
// The implicit half of an IMEX step: S = I - (dt/2) Lin, constant over a run, built once as a
// CSR operator and set up once in the linear solver, with the model's band ordering as a
// hint. The core hands the solver the storage it prefers (dense for the paper's GEPP, banded
// under the band ordering for the fast path, CSR for a Krylov method).
#include <solvent/solvent.hpp>

namespace solvent::imex {

// S = I - half_dt Lin, with every diagonal entry present and each row sorted.
CsrMatrix<double> implicit_matrix(const CsrMatrix<double>& lin, double half_dt);

class ImplicitSystem {
 public:
  ImplicitSystem(const ImexProblem& problem, double dt, LinearSolver& solver);

  // rhs_out = (I + dt/2 Lin) u
  void explicit_half(std::span<const double> u, std::span<double> rhs_out) const;
  // Solves S u_new = rhs.
  SolveStats solve(std::span<const double> rhs, std::span<double> u_new);

 private:
  CsrMatrix<double> lin_;
  double half_dt_;
  LinearSolver& solver_;
};

}  // namespace solvent::imex
