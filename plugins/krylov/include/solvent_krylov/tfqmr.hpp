#pragma once
// TFQMR (Freund 1993; Saad, Iterative Methods, algorithm 7.8) on B y = r0 from y = 0.
// One iteration is two half-steps, two products with B and three reductions. TFQMR keeps
// no residual vector. The monitor records the quasi-residual norm tau (monotone: the last
// iterate is the quasi-minimal one) and tests convergence on the bound
// ||r_m|| <= tau sqrt(m + 1), confirmed by a true residual; when that disagrees, TFQMR
// restarts from the true residual. (A residual recurrence r -= eta B d was tried: its
// own rounding gap stalls it above 1e-9 on the Helmholtz test matrices.)
#include <solvent/grid/exchange_cost.hpp>
#include <solvent_krylov/monitor.hpp>

#include <cmath>
#include <complex>
#include <utility>

namespace solvent::krylov {

struct Tfqmr {
  static constexpr const char* name = "tfqmr";
  static constexpr bool right_preconditioned = true;
  static constexpr bool uses_degree = false;
  // Over ranks: two products' halo exchanges and three sums (sigma, ||w||, then ||w|| with
  // <w, r0>).
  static IterationExchanges exchanges(const KrylovOptions&) { return {2, 3}; }

  template <class Space, class Op>
  static void run(Space& s, const Op& b_op, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions&) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    Vector w = s.vector(), u = s.vector(), bu = s.vector(), bu2 = s.vector(), v = s.vector(),
           d = s.vector(), r = s.vector(), before = s.vector();
    const double shadow_norm = s.norm(r0);
    double tau = 0.0, theta = 0.0;
    std::int64_t steps = 0;  // full iterations since the (re)start, for the bound
    T eta = T(0), rho = T(0);
    // (Re)start from residual r: after a failed convergence check the iteration goes on
    // from the true residual, which removes the gap the recurrences built up.
    auto start = [&](const Vector& from, double from_norm) {
      s.assign(from, w);
      s.assign(from, u);
      b_op(u, bu);
      s.assign(bu, v);
      s.scale(T(0), d);
      tau = from_norm;
      theta = 0.0;
      eta = T(0);
      rho = s.dot(r0, from);
      steps = 0;
    };
    // One half-step: d = u_j + (theta^2 eta / alpha) d, then theta, c, tau, eta from the
    // new ||w||; the caller adds eta d to y.
    auto half_step = [&](const Vector& uj, T alpha, double w_norm) {
      s.axpby(T(1), uj, T(theta * theta) * eta / alpha, d);
      theta = tau > 0.0 ? w_norm / tau : 0.0;  // tau = 0: the previous half-step was exact
      const double c = 1.0 / std::sqrt(1.0 + theta * theta);
      tau *= theta * c;
      eta = T(c * c) * alpha;
    };
    start(r0, shadow_norm);
    for (;;) {
      ++steps;
      const T sigma = s.dot(r0, v);
      if (vanishes(std::abs(sigma), 0.0)) {
        mon.stop("breakdown: sigma = <r0, v> = 0");
        return;
      }
      const T alpha = rho / sigma;
      s.axpy(-alpha, bu, w);
      half_step(u, alpha, s.norm(w));
      // The iteration's first y += eta d into the other vector (the same bits), so that the
      // iterate before stays whole for the monitor's best iterate (Monitor::record_step):
      // tau falls at almost every iteration, and each new best would otherwise be copied.
      s.waxpy(eta, d, y, before);
      std::swap(y, before);
      // u is not needed after its half-step: the second half-step's vector u - alpha v
      // takes its place (no copy), and becomes the next u below.
      s.axpy(-alpha, v, u);
      b_op(u, bu2);
      s.axpy(-alpha, bu2, w);
      const Vector* wv[2] = {&w, &r0};
      const std::vector<T> ww_wr0 = s.dots(w, wv);
      half_step(u, alpha, std::sqrt(std::real(ww_wr0[0])));
      s.axpy(eta, d, y);
      const Next next = mon.record_step(tau, y, before, &r,
                                        tau * std::sqrt(2.0 * static_cast<double>(steps) + 1.0));
      if (next == Next::stop) return;
      if (next == Next::residual_replaced) {
        start(r, s.norm(r));
        continue;
      }
      const T rho_new = conjugate(ww_wr0[1]);
      if (vanishes(std::abs(rho_new), shadow_norm * std::sqrt(std::real(ww_wr0[0])))) {
        mon.stop("breakdown: rho = 0");
        return;
      }
      const T beta = rho_new / rho;
      rho = rho_new;
      s.axpby(T(1), w, beta, u);
      b_op(u, bu);
      s.axpby(T(1), bu2, beta, v);
      s.axpby(T(1), bu, beta, v);
    }
  }
};

}  // namespace solvent::krylov
