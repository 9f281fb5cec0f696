#pragma once
// The implicit half of an IMEX step: S = I - c Lin (c = dt/2 for Crank–Nicolson and its
// backward-Euler half steps, dt for a backward-Euler step, 2 dt / 3 for SBDF2), built as a CSR
// operator and set up in the linear solver with the model's band ordering as a hint; the core
// hands the solver the storage it prefers (dense for De Luca 2025's GEPP, banded under the band
// ordering for the fast path, CSR for a Krylov method). Setting another c sets the solver up
// again (a new factorisation; a preconditioner refreshes its values on the same pattern).
#include <solvent/solvent.hpp>

namespace solvent::imex {

// S = I - c Lin, with every diagonal entry present and each row sorted.
CsrMatrix<double> implicit_matrix(const CsrMatrix<double>& lin, double c);

class ImplicitSystem {
 public:
  ImplicitSystem(const ImexProblem& problem, LinearSolver& solver);

  // Sets the solver up for S = I - c Lin unless it already holds that c.
  void use(double c);
  // out = (u + c Lin u) + dt e, with the c in use, one row at a time (one pass over the
  // vectors, where two took longer).
  void explicit_part(std::span<const double> u, std::span<const double> e, double dt,
                     std::span<double> out) const;
  // out = Lin u.
  void apply_lin(std::span<const double> u, std::span<double> out) const;
  // Solves S u_new = rhs.
  SolveStats solve(std::span<const double> rhs, std::span<double> u_new);
  const CsrMatrix<double>& lin() const { return lin_; }

 private:
  // (Lin u)_i.
  double lin_row(std::span<const double> u, std::size_t i) const {
    double s = 0.0;
    for (auto k = lin_.row_ptr[i]; k < lin_.row_ptr[i + 1]; ++k)
      s += lin_.values[k] * u[std::size_t(lin_.col_idx[k])];
    return s;
  }

  CsrMatrix<double> lin_;
  std::vector<std::int32_t> band_ordering_;
  LinearSolver& solver_;
  double c_ = -1.0;  // none set up yet
};

}  // namespace solvent::imex
