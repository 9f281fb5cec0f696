#pragma once
// BiCGSTAB(l) (Sleijpen and Fokkema 1993) on B y = r0 from y = 0: l BiCG steps, then the
// residual is minimised over a degree-l polynomial in B. The minimisation uses the Gram
// matrix of r_0..r_l and its normal equations (the "enhanced" form of Sleijpen, van der
// Vorst and Fokkema 1994), whose products all go in one reduction where modified
// Gram-Schmidt needs O(l^2) - each one a round trip from the GPU and a sum over the ranks;
// the residuals that are numerically dependent are dropped from it (small_dense_solve.hpp).
// Each BiCG step's norm of r_0 shares a reduction with the next step's rho, and the cycle's
// last norm with the next cycle's first: 2 l + 1 reductions a cycle, each product with the
// bits it has alone, so the iterations are those of one reduction per product. One
// iteration is one cycle: 2l products with B. The updated residual is replaced by the true
// one as it falls (reliable updates, below), so that it cannot drift from r0 - B y unseen.
#include <solvent/grid/exchange_cost.hpp>
#include <solvent_krylov/monitor.hpp>
#include <solvent_krylov/small_dense_solve.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <span>
#include <utility>
#include <vector>

namespace solvent::krylov {

struct BicgstabL {
  static constexpr const char* name = "bicgstab-l";
  static constexpr bool right_preconditioned = true;
  static constexpr bool uses_degree = true;
  // Over ranks, a cycle of l steps: 2 l products' halo exchanges and 2 l + 1 sums (sigma of
  // each step, rho of steps 1..l-1 with the inner norm, the minimal-residual products, the
  // last norm with the next cycle's first rho).
  static IterationExchanges exchanges(const KrylovOptions& o) {
    return {2 * o.degree, 2 * o.degree + 1};
  }

  template <class Space, class Op>
  static void run(Space& s, const Op& b_op, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions& o) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    const std::size_t l = static_cast<std::size_t>(o.degree);
    std::vector<Vector> r, u;
    // The iterate of the last record, whole while the cycle updates y (record_step).
    Vector before = s.vector();
    for (std::size_t j = 0; j <= l; ++j) {
      r.push_back(s.vector());
      u.push_back(s.vector());
    }
    // The vectors as the updates of several at once take them.
    std::vector<const Vector*> r_in, u_in;
    std::vector<Vector*> r_out, u_out;
    for (std::size_t j = 0; j <= l; ++j) {
      r_in.push_back(&r[j]);
      u_in.push_back(&u[j]);
      r_out.push_back(&r[j]);
      u_out.push_back(&u[j]);
    }
    s.assign(r0, r[0]);
    // The shadow residual, r0 until a breakdown after progress restarts the Krylov space
    // from the current residual (the usual cure: a nearly exact preconditioner can make
    // <shadow, B u> vanish while the residual is small but not yet at the tolerance).
    Vector shadow = s.vector();
    s.assign(r0, shadow);
    double shadow_norm = s.norm(r0);
    double r_norm = shadow_norm;
    // Reliable updates (Sleijpen and van der Vorst 1996): the updated residual r[0] drifts
    // from r0 - B y by rounding in proportion to the largest residuals the updates went
    // through, so when it has fallen by `refresh` below the largest norm seen since the last
    // replacement it is replaced by r0 - B y (one product per two decades). Replacing it
    // only at the tolerance, when the drift may already exceed it, throws away the BiCG
    // bi-orthogonality (the next cycle's residual jumped up by 10^3 on the cabin systems).
    constexpr double refresh = 1e-2;
    double peak = r_norm;
    T rho0 = T(1), alpha = T(0), omega = T(1);
    bool progressed = false;  // a cycle completed since the shadow was chosen
    // ||r_0|| and <shadow, v> in one reduction; the latter is the next step's rho, kept in
    // next_rho until shadow or r_0 changes otherwise.
    std::optional<T> next_rho;
    const auto norm_and_rho = [&](const Vector& v) {
      const Vector* xs[2] = {&r[0], &shadow};
      const Vector* ys[2] = {&r[0], &v};
      const std::vector<T> c = s.pair_dots(xs, ys);
      next_rho = c[1];
      return std::sqrt(real_part(c[0]));
    };
    for (;;) {
      rho0 = -omega * rho0;
      const char* breakdown = nullptr;
      bool refuted = false;  // a residual inside this cycle reached the target, r0 - B y not
      for (std::size_t j = 0; j < l && !breakdown; ++j) {
        const T rho1 = next_rho ? *next_rho : s.dot(shadow, r[j]);
        next_rho.reset();
        if (vanishes(std::abs(rho1), j == 0 ? shadow_norm * r_norm : 0.0)) {
          breakdown = "breakdown: rho = 0";
          // r_0 may have reached zero inside the cycle: that is convergence, not breakdown.
          if (j > 0 && mon.record_step(s.norm(r[0]), y, before, &r[0]) == Next::stop) return;
          break;
        }
        const T beta = alpha * rho1 / rho0;
        rho0 = rho1;
        // u_i = r_i - beta u_i, i = 0..j
        s.axpby_each(T(1), std::span(r_in).first(j + 1), -beta, std::span(u_out).first(j + 1));
        b_op(u[j], u[j + 1]);
        const T sigma = s.dot(shadow, u[j + 1]);
        if (vanishes(std::abs(sigma), 0.0)) {
          breakdown = "breakdown: sigma = <r0, B u> = 0";
          if (j > 0 && mon.record_step(s.norm(r[0]), y, before, &r[0]) == Next::stop) return;
          break;
        }
        alpha = rho0 / sigma;
        // r_i -= alpha u_{i+1}, i = 0..j
        s.axpy_each(-alpha, std::span(u_in).subspan(1, j + 1), std::span(r_out).first(j + 1));
        b_op(r[j], r[j + 1]);
        // The cycle's first update of y goes into the other vector (the bits of y += alpha
        // u_0), so that the iterate before stays whole for the monitor's best iterate
        // (Monitor::record_step): a cycle has a new smallest residual nearly every time.
        if (j == 0) {
          s.waxpy(alpha, u[0], y, before);
          std::swap(y, before);
        } else {
          s.axpy(alpha, u[0], y);
        }
        // r_0 may reach the tolerance inside the cycle (after the first step, with a near-exact
        // preconditioner): the next step would divide rounding noise by rounding noise and
        // throw y away, so the cycle ends here when the true residual confirms it. When it
        // does not, nothing is replaced: r_1..r_j hold B^i of the updated r_0, and an r_0
        // replaced here would be combined with them by the minimal-residual step, its
        // difference from the updated one multiplied by the coefficients gamma (10^4 to
        // 10^6 on the cabin systems) into a drift no later residual sees. One true
        // residual per cycle at most: the drift that refuted it stays until the cycle ends.
        if (j + 1 < l) {
          const double inner = norm_and_rho(r[j + 1]);
          peak = std::max(peak, inner);
          if (inner <= mon.target() && !refuted) {
            if (mon.confirms(y)) return;
            refuted = true;
          }
        }
      }
      if (breakdown) {
        if (!progressed) {
          mon.stop(breakdown);
          return;
        }
        // y and r[0] are consistent here (r[0] = r0 - B y): start a new space from them.
        s.assign(r[0], shadow);
        next_rho.reset();
        shadow_norm = r_norm = peak = s.norm(r[0]);
        rho0 = omega = T(1);
        alpha = T(0);
        u[0] = s.vector();  // not scale(0): u may hold the non-finite value that broke down
        progressed = false;
        continue;
      }
      // gram[i][j] = <r_i, r_j> for 1 <= i, j <= l; rhs[i] = <r_i, r_0>: <r_j, r_i> for
      // i = 0..j, j = 1..l, in one reduction.
      std::vector<T> gram(l * l), gamma(l);
      std::vector<const Vector*> xs, ys;
      for (std::size_t j = 1; j <= l; ++j)
        for (std::size_t i = 0; i <= j; ++i) {
          xs.push_back(&r[j]);
          ys.push_back(&r[i]);
        }
      const std::vector<T> c = s.pair_dots(xs, ys);
      for (std::size_t j = 1, k = 0; j <= l; ++j) {
        gamma[j - 1] = c[k++];
        for (std::size_t i = 1; i <= j; ++i, ++k) {
          gram[(j - 1) * l + (i - 1)] = c[k];
          gram[(i - 1) * l + (j - 1)] = conjugate(c[k]);
        }
      }
      if (solve_minimal_residual(gram, gamma, l) == 0) {
        // The Gram matrix of (nearly) vanished residuals is singular too: converged first?
        if (mon.record_step(s.norm(r[0]), y, before, &r[0]) == Next::stop) return;
        mon.stop("breakdown: the minimal-residual system is singular");
        return;
      }
      // omega's term against the polynomial's largest, |gamma_j| ||r_j||: at rounding level,
      // omega is 0 (the next rho = -omega rho would be noise), whatever bits it holds.
      double largest_term = 0.0;
      for (std::size_t j = 0; j < l; ++j)
        largest_term =
            std::max(largest_term, std::abs(gamma[j]) * std::sqrt(real_part(gram[j * l + j])));
      const bool omega_vanished = !(std::abs(gamma[l - 1]) * std::sqrt(real_part(gram[l * l - 1])) >
                                    2.220446049250313e-16 * largest_term);
      // y += gamma_j r_{j-1}, r_0 -= gamma_j r_j, u_0 -= gamma_j u_j, j = 1..l, except an r_j
      // dropped as dependent; y's terms first, while r_0 is still the one they take.
      std::vector<T> plus, minus;
      std::vector<const Vector*> r_before, r_after, u_after;
      for (std::size_t j = 1; j <= l; ++j) {
        if (gamma[j - 1] == T(0)) continue;
        plus.push_back(gamma[j - 1]);
        minus.push_back(-gamma[j - 1]);
        r_before.push_back(&r[j - 1]);
        r_after.push_back(&r[j]);
        u_after.push_back(&u[j]);
      }
      s.add_combination(std::span<const T>(plus), r_before, y);
      s.add_combination(std::span<const T>(minus), r_after, r[0]);
      s.add_combination(std::span<const T>(minus), u_after, u[0]);
      omega = gamma[l - 1];
      r_norm = norm_and_rho(r[0]);
      peak = std::max(peak, r_norm);
      if (r_norm < refresh * peak && r_norm > mon.target()) {
        peak = r_norm = mon.replace_residual(y, r[0], r_norm);
        next_rho.reset();
      }
      progressed = true;
      const Next next = mon.record_step(r_norm, y, before, &r[0]);
      if (next == Next::stop) return;
      if (omega_vanished) {
        mon.stop("breakdown: omega = 0");
        return;
      }
      if (next == Next::residual_replaced) {
        // The updated residual reached the target and the true one (now r[0]) did not: they
        // differ by as much as r[0] itself, and u[0] belongs to the updated one. Restart
        // the directions from r[0] (u = r, as BiCGSTAB's p = r), keeping the shadow.
        r_norm = peak = s.norm(r[0]);
        rho0 = omega = T(1);
        alpha = T(0);
        u[0] = s.vector();
        next_rho.reset();
      }
    }
  }
};

}  // namespace solvent::krylov
