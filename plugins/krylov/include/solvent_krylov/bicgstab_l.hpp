#pragma once
// BiCGSTAB(l) (Sleijpen and Fokkema 1993) on B y = r0 from y = 0: l BiCG steps, then the
// residual is minimised over a degree-l polynomial in B. The minimisation uses the Gram
// matrix of r_0..r_l and its normal equations (the "enhanced" form of Sleijpen, van der
// Vorst and Fokkema 1994), which needs l + 1 reductions per cycle where modified
// Gram-Schmidt needs O(l^2) - each one a round trip from the GPU. One iteration is one
// cycle: 2l products with B.
#include <solvent_krylov/monitor.hpp>
#include <solvent_krylov/small_dense_solve.hpp>

#include <complex>
#include <vector>

namespace solvent::krylov {

struct BicgstabL {
  static constexpr const char* name = "bicgstab-l";
  static constexpr bool right_preconditioned = true;
  static constexpr bool uses_degree = true;

  template <class Space, class Op>
  static void run(Space& s, const Op& b_op, const typename Space::Vector& r0,
                  typename Space::Vector& y, Monitor<Space>& mon, const KrylovOptions& o) {
    using T = typename Space::Scalar;
    using Vector = typename Space::Vector;
    const std::size_t l = static_cast<std::size_t>(o.degree);
    std::vector<Vector> r, u;
    for (std::size_t j = 0; j <= l; ++j) {
      r.push_back(s.vector());
      u.push_back(s.vector());
    }
    s.assign(r0, r[0]);
    // The shadow residual, r0 until a breakdown after progress restarts the Krylov space
    // from the current residual (the usual cure: a nearly exact preconditioner can make
    // <shadow, B u> vanish while the residual is small but not yet at the tolerance).
    Vector shadow = s.vector();
    s.assign(r0, shadow);
    double shadow_norm = s.norm(r0);
    double r_norm = shadow_norm;
    T rho0 = T(1), alpha = T(0), omega = T(1);
    bool progressed = false;  // a cycle completed since the shadow was chosen
    for (;;) {
      rho0 = -omega * rho0;
      const char* breakdown = nullptr;
      for (std::size_t j = 0; j < l && !breakdown; ++j) {
        const T rho1 = s.dot(shadow, r[j]);
        if (vanishes(std::abs(rho1), j == 0 ? shadow_norm * r_norm : 0.0)) {
          breakdown = "breakdown: rho = 0";
          // r_0 may have reached zero inside the cycle: that is convergence, not breakdown.
          if (j > 0 && mon.record(s.norm(r[0]), y, &r[0]) == Next::stop) return;
          break;
        }
        const T beta = alpha * rho1 / rho0;
        rho0 = rho1;
        for (std::size_t i = 0; i <= j; ++i) s.axpby(T(1), r[i], -beta, u[i]);
        b_op(u[j], u[j + 1]);
        const T sigma = s.dot(shadow, u[j + 1]);
        if (vanishes(std::abs(sigma), 0.0)) {
          breakdown = "breakdown: sigma = <r0, B u> = 0";
          if (j > 0 && mon.record(s.norm(r[0]), y, &r[0]) == Next::stop) return;
          break;
        }
        alpha = rho0 / sigma;
        for (std::size_t i = 0; i <= j; ++i) s.axpy(-alpha, u[i + 1], r[i]);
        b_op(r[j], r[j + 1]);
        s.axpy(alpha, u[0], y);
        // r_0 may reach the tolerance inside the cycle (after the first step, with a near-exact
        // preconditioner): the next step would divide rounding noise by rounding noise and
        // throw y away, so the cycle ends here when the true residual confirms it.
        if (j + 1 < l) {
          const double inner = s.norm(r[0]);
          if (inner <= mon.target() && mon.record(inner, y, &r[0]) == Next::stop) return;
        }
      }
      if (breakdown) {
        if (!progressed) {
          mon.stop(breakdown);
          return;
        }
        // y and r[0] are consistent here (r[0] = r0 - B y): start a new space from them.
        s.assign(r[0], shadow);
        shadow_norm = r_norm = s.norm(r[0]);
        rho0 = omega = T(1);
        alpha = T(0);
        u[0] = s.vector();  // not scale(0): u may hold the non-finite value that broke down
        progressed = false;
        continue;
      }
      // gram[i][j] = <r_i, r_j> for 1 <= i, j <= l; rhs[i] = <r_i, r_0>.
      std::vector<T> gram(l * l), gamma(l);
      std::vector<const Vector*> column;
      for (std::size_t j = 1; j <= l; ++j) {
        column.assign({&r[0]});
        for (std::size_t i = 1; i <= j; ++i) column.push_back(&r[i]);
        const std::vector<T> c = s.dots(r[j], column);  // <r_j, r_i>, i = 0..j
        gamma[j - 1] = c[0];
        for (std::size_t i = 1; i <= j; ++i) {
          gram[(j - 1) * l + (i - 1)] = c[i];
          gram[(i - 1) * l + (j - 1)] = conjugate(c[i]);
        }
      }
      if (!solve_small_dense(gram, gamma, l)) {
        // The Gram matrix of (nearly) vanished residuals is singular too: converged first?
        if (mon.record(s.norm(r[0]), y, &r[0]) == Next::stop) return;
        mon.stop("breakdown: the minimal-residual system is singular");
        return;
      }
      for (std::size_t j = 1; j <= l; ++j) {
        s.axpy(gamma[j - 1], r[j - 1], y);
        s.axpy(-gamma[j - 1], r[j], r[0]);
        s.axpy(-gamma[j - 1], u[j], u[0]);
      }
      omega = gamma[l - 1];
      r_norm = s.norm(r[0]);
      progressed = true;
      if (mon.record(r_norm, y, &r[0]) == Next::stop) return;
      if (vanishes(std::abs(omega), 0.0)) {
        mon.stop("breakdown: omega = 0");
        return;
      }
    }
  }
};

}  // namespace solvent::krylov
