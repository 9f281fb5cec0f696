#pragma once
// One solve of A x = b with a Krylov method, in any vector space (host or device):
// r0 = b - A x0, the method solves B y = r0 from y = 0 with B = A M^{-1} (right
// preconditioning, so the residual the method sees is the true one) or B = A (CG, which
// preconditions inside), and x = x0 + M^{-1} y (or x0 + y). The relative residual in the
// statistics is recomputed from the returned x.
#include <solvent_krylov/monitor.hpp>

#include <solvent/linear_solver.hpp>
#include <solvent/numerics/vector_space.hpp>

#include <span>

namespace solvent::krylov {

template <class Method, OperatorSpace Space>
SolveStats solve_system(Space& s, std::span<const typename Space::Scalar> b_host,
                        std::span<typename Space::Scalar> x_host, const KrylovOptions& o) {
  using T = typename Space::Scalar;
  using Vector = typename Space::Vector;
  SolveStats stats;
  const Vector b = s.upload(b_host);
  Vector x = o.use_initial_guess ? s.upload(x_host) : s.vector();
  const double b_norm = s.norm(b);
  if (b_norm == 0.0) {
    s.download(s.vector(), x_host);
    stats.converged = true;
    stats.status = "converged";
    return stats;
  }
  // r0 = b - A x0
  Vector r0 = s.vector();
  s.apply(x, r0);
  s.axpby(T(1), b, T(-1), r0);

  Vector scratch = s.vector();
  auto b_op = [&](const Vector& in, Vector& out) {
    if constexpr (Method::right_preconditioned) {
      if (s.preconditioned()) {
        s.precondition(in, scratch);
        s.apply(scratch, out);
        return;
      }
    }
    s.apply(in, out);
  };
  Monitor<Space> mon(s, b_op, r0, b_norm, o);
  Vector y = s.vector();
  if (s.norm(r0) <= mon.target()) {
    stats.converged = true;
    stats.status = "converged";
  } else {
    Method::run(s, b_op, r0, y, mon, o);
    mon.restore_best(y);
    if constexpr (Method::right_preconditioned) {
      s.precondition(y, scratch);
      s.axpy(T(1), scratch, x);
    } else {
      s.axpy(T(1), y, x);
    }
    stats.iterations = mon.iterations();
    stats.residual_history = mon.history();
    stats.converged = mon.converged();
    stats.status = mon.status();
  }
  s.apply(x, r0);
  s.axpby(T(1), b, T(-1), r0);
  stats.residual = s.norm(r0) / b_norm;
  if (stats.converged && !(stats.residual <= o.tolerance)) {
    stats.converged = false;
    stats.status = "residual gap: the method converged but ||b - Ax|| / ||b|| is above tolerance";
  }
  s.download(x, x_host);
  return stats;
}

}  // namespace solvent::krylov
