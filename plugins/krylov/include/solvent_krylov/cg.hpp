#pragma once
// Conjugate gradients with Jacobi (left) preconditioning, for Hermitian positive definite
// operators (the self-adjoint grid equations of Sukhinov et al.). y solves A y = r0 directly.
#include <solvent_krylov/monitor.hpp>

#include <complex>

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
    auto precondition = [&] {
      s.assign(r, z);
      s.precondition(z);
      return std::real(s.dot(r, z));
    };
    double rz = precondition();
    s.assign(z, p);
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
      if (mon.record(s.norm(r), y, &r) == Next::stop) return;
      const double rz_new = precondition();
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
