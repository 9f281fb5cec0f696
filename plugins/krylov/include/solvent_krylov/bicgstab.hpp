#pragma once
// BiCGSTAB (van der Vorst 1992) on B y = r0 from y = 0, in the form of Cheik Ahamed and Magoules'
// P-BiCGSTAB: the shadow residual is r0, inner products conjugate their first argument.
// One iteration: two products with B, four reductions brought back as scalars.
#include <solvent/grid/exchange_cost.hpp>
#include <solvent_krylov/monitor.hpp>

#include <complex>
#include <utility>

namespace solvent::krylov {

struct Bicgstab {
  static constexpr const char* name = "bicgstab";
  static constexpr bool right_preconditioned = true;
  static constexpr bool uses_degree = false;
  // Over ranks: two products' halo exchanges and four sums (sigma, ||s||, <t, t> with
  // <t, s>, ||r|| with <r, r0>).
  static IterationExchanges exchanges(const KrylovOptions&) { return {2, 4}; }

  template <class Space, class Op>
  static void run(Space& s, const Op& b_op, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions&) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    Vector r = s.vector(), p = s.vector(), v = s.vector(), t = s.vector(), before = s.vector();
    s.assign(r0, r);
    const double shadow_norm = s.norm(r0);
    double r_norm = shadow_norm;
    T rho = s.dot(r0, r);
    T rho_old = T(1), alpha = T(1), omega = T(1);
    bool restart = true;  // p = r: at the start, and after a residual replacement
    for (;;) {
      if (vanishes(std::abs(rho), shadow_norm * r_norm)) {
        mon.stop("breakdown: rho = 0");
        return;
      }
      if (restart) {
        s.assign(r, p);
        restart = false;
      } else {
        const T beta = (rho / rho_old) * (alpha / omega);
        s.axpy(-omega, v, p);
        s.axpby(T(1), r, beta, p);
      }
      b_op(p, v);
      const T sigma = s.dot(r0, v);
      if (vanishes(std::abs(sigma), 0.0)) {
        mon.stop("breakdown: sigma = <r0, B p> = 0");
        return;
      }
      alpha = rho / sigma;
      s.axpy(-alpha, v, r);  // r now holds s = r - alpha v
      // The new iterate into the other vector (the bits of y += alpha p), so that the one
      // before stays whole for the monitor's best iterate (Monitor::record_step).
      s.waxpy(alpha, p, y, before);
      std::swap(y, before);
      const double s_norm = s.norm(r);
      bool omega_vanished = false;
      if (s_norm > mon.target()) {
        b_op(r, t);
        const Vector* tv[2] = {&t, &r};
        const std::vector<T> tt_ts = s.dots(t, tv);
        const double tt = std::real(tt_ts[0]);
        omega_vanished = vanishes(std::abs(tt_ts[1]), std::sqrt(tt) * s_norm);
        omega = omega_vanished ? T(0) : tt_ts[1] / tt;
        s.axpy(omega, r, y);
        s.axpy(-omega, t, r);
      }
      const Vector* rv[2] = {&r, &r0};
      const std::vector<T> rr_rr0 = s.dots(r, rv);
      r_norm = std::sqrt(std::real(rr_rr0[0]));
      rho_old = rho;
      rho = conjugate(rr_rr0[1]);
      const Next next = mon.record_step(r_norm, y, before, &r);
      if (next == Next::stop) return;
      if (omega_vanished) {
        mon.stop("breakdown: omega = 0");
        return;
      }
      if (next == Next::residual_replaced) {
        rho = s.dot(r0, r);
        r_norm = s.norm(r);
        restart = true;
      }
    }
  }
};

}  // namespace solvent::krylov
