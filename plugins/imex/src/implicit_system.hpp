#pragma once
// The implicit half of an IMEX step: S = I - (dt/2) Lin, constant over a run, set up once
// in the linear solver, in the first form the solver accepts — dense (the paper), or
// banded under the model's band ordering (the fast path).
#include <solvent/solvent.hpp>

#include <string>

namespace solvent::imex {

class ImplicitSystem {
 public:
  // form: "auto" (banded if the solver and the model allow it, else dense), "dense", "banded".
  ImplicitSystem(const ImexProblem& problem, double dt, LinearSolver& solver,
                 const std::string& form);

  // rhs_out = (I + dt/2 Lin) u
  void explicit_half(std::span<const double> u, std::span<double> rhs_out) const;
  // Solves S u_new = rhs.
  SolveStats solve(std::span<const double> rhs, std::span<double> u_new);
  OperatorKind form() const { return form_; }

 private:
  CsrMatrix<double> lin_;
  double half_dt_;
  LinearSolver& solver_;
  OperatorKind form_;
  std::vector<std::int32_t> perm_;  // banded form: new index -> state index
  std::vector<double> b_perm_, x_perm_;
};

}  // namespace solvent::imex
