#pragma once
// Conjugate gradients with Jacobi (left) preconditioning, for Hermitian positive definite
// operators (the self-adjoint grid equations of Sukhinov et al.). y solves A y = r0 directly.
#include <solvent_krylov/monitor.hpp>

#include <cmath>
#include <complex>
#include <vector>

namespace solvent::krylov {

struct Cg {
  static constexpr const char* name = "cg";
  static constexpr bool right_preconditioned = false;
  static constexpr bool uses_degree = false;

  template <class Space, class Op>
  static void run(Space& s, const Op& a_op, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions&) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    Vector r = s.vector(), z = s.vector(), p = s.vector(), q = s.vector();
    s.assign(r0, r);
    s.precondition(r, z);
    double rz = std::real(s.dot(r, z));
    s.assign(z, p);
    const Vector* rz_pair[2] = {&r, &z};
    for (;;) {
      a_op(p, q);
      const double pq = std::real(s.dot(p, q));
      if (!(pq > 0.0)) {
        mon.stop("breakdown: p^H A p <= 0 (the operator is not positive definite)");
        return;
      }
      const T alpha = T(rz / pq);
      s.axpy(alpha, p, y);
      s.axpy(-alpha, q, r);
      // z = M^-1 r before the convergence check, so that ||r|| and <r, z> come from one
      // pass over r (the last iteration preconditions once in vain).
      s.precondition(r, z);
      std::vector<T> rr_rz = s.dots(r, rz_pair);
      const Next next = mon.record(std::sqrt(std::real(rr_rz[0])), y, &r);
      if (next == Next::stop) return;
      if (next == Next::residual_replaced) {
        s.precondition(r, z);
        rr_rz[1] = s.dot(r, z);
      }
      const double rz_new = std::real(rr_rz[1]);
      if (!(rz_new > 0.0)) {
        mon.stop("breakdown: r^H M^-1 r <= 0 (the preconditioner is not positive definite)");
        return;
      }
      s.axpby(T(1), z, T(rz_new / rz), p);
      rz = rz_new;
    }
  }
};

}  // namespace solvent::krylov
