#pragma once
// Shared by the CPU and CUDA solver tests: loading a Krylov plugin by name and checking
// what one solve returned against the operator itself.
#include "reference_kernels.hpp"

#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

namespace solvent::test {

template <class M>
std::shared_ptr<const Operator> share(M m) {
  return std::make_shared<const Operator>(std::move(m));
}

// pc: a preconditioner plugin's name, or "none".
template <class T>
SolveStats solve_with(const std::string& name, const testkit::Settings& s,
                      const std::shared_ptr<const Operator>& op, const std::vector<T>& b,
                      std::vector<T>& x, const std::string& pc = "none") {
  auto solver = testkit::make_linear_solver(name, s);
  if (pc != "none") solver->set_preconditioner(testkit::make_preconditioner(pc));
  solver->setup(op);
  return solver->solve(std::span<const T>(b), std::span<T>(x));
}

// The testkit's conformance checks for an iterative solver on CSR and Stencil7 operators,
// real and complex, at relative residual 1e-10.
inline void check_conformance(const std::string& name) {
  CAPTURE(name);
  for (auto kind : {OperatorKind::Csr, OperatorKind::Stencil7}) {
    testkit::LinearSolverChecks c;
    c.real = c.complex = true;
    c.kind = kind;
    c.direct = false;
    c.tolerance = 1e-10;
    testkit::check_linear_solver(name, {{"tolerance", 1e-10}}, c);
  }
}

// ||b - A x|| / ||b|| computed with the sequential reference.
template <class T, class M>
double true_residual(const M& a, const std::vector<T>& b, const std::vector<T>& x) {
  const auto ax = reference_apply(a, x);
  double r = 0, n = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    r += std::norm(b[i] - ax[i]);
    n += std::norm(b[i]);
  }
  return std::sqrt(r / n);
}

// What every solve must satisfy, converged or not: the initial residual and one history
// entry per iteration, the
// reported residual is the true one of the returned x, and x is the best iterate seen
// (no worse than the start, x = 0, or any recorded residual). TFQMR records its
// quasi-residual norm, which is not the residual of an iterate: `history_is_residual`
// is false for it.
template <class T, class M>
void check_stats_honest(const M& a, const std::vector<T>& b, const std::vector<T>& x,
                        const SolveStats& st, bool history_is_residual = true) {
  CHECK(static_cast<std::int64_t>(st.residual_history.size()) == st.iterations + 1);
  const double r = true_residual(a, b, x);
  CHECK(st.residual == doctest::Approx(r).epsilon(1e-6));
  if (!st.converged) {
    double best = 1.0;
    if (history_is_residual)
      for (double h : st.residual_history) best = std::min(best, h);
    CHECK(r <= best * (1.0 + 1e-6));
  } else {
    CHECK(st.status == "converged");
  }
}

}  // namespace solvent::test
