#pragma once
// Conjugate gradients with Jacobi (left) preconditioning, for Hermitian positive definite
// operators (the self-adjoint grid equations of Sukhinov et al.). y solves A y = r0 directly.
#include <solvent/grid/exchange_cost.hpp>
#include <solvent_krylov/monitor.hpp>

#include <cmath>
#include <complex>
#include <utility>
#include <vector>

namespace solvent::krylov {

struct Cg {
  static constexpr const char* name = "cg";
  static constexpr bool right_preconditioned = false;
  static constexpr bool uses_degree = false;
  // Over ranks an iteration makes one product's halo exchange and two sums (<p, Ap>, then
  // ||r|| and <r, z> together).
  static IterationExchanges exchanges(const KrylovOptions&) { return {1, 2}; }

  // CG's operator is the space's own (B = A: it preconditions inside), so the product and
  // <p, Ap> are taken in one pass by the space (apply_dot) instead of through `Op`.
  template <class Space, class Op>
  static void run(Space& s, const Op&, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions&) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    Vector r = s.vector(), z = s.vector(), p = s.vector(), q = s.vector(), before = s.vector();
    s.assign(r0, r);
    s.precondition(r, z);
    double rz = std::real(s.dot(r, z));
    s.assign(z, p);
    const Vector* rz_pair[2] = {&r, &z};
    for (;;) {
      const double pq = std::real(s.apply_dot(p, q));
      if (!(pq > 0.0)) {
        mon.stop("breakdown: p^H A p <= 0 (the operator is not positive definite)");
        return;
      }
      const T alpha = T(rz / pq);
      // The new iterate into the other vector (the bits of y += alpha p), so that the one
      // before stays whole for the monitor's best iterate (Monitor::record_step).
      s.waxpy(alpha, p, y, before);
      std::swap(y, before);
      s.axpy(-alpha, q, r);
      // z = M^-1 r before the convergence check, so that ||r|| and <r, z> come from one
      // pass over r (the last iteration preconditions once in vain).
      s.precondition(r, z);
      std::vector<T> rr_rz = s.dots(r, rz_pair);
      const Next next = mon.record_step(std::sqrt(std::real(rr_rz[0])), y, before, &r);
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
