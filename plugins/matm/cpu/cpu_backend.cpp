#include "cpu/cpu_backend.hpp"

#include <algorithm>
#include <cmath>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace solvent::matm {
namespace {

// z0 = A0 v, z1 = A1 v (when z1 is given), and the inner products eq. (5) takes from them.
ProductSums apply(const SplitView& s, const double* v, const double* r, double* z0, double* z1,
                  int threads) {
  double d_v_v = 0.0, r2_v = 0.0, a0_v_v = 0.0, r_v = 0.0;
  const index_t lines = s.n2 * s.n3;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : d_v_v, r2_v, a0_v_v, r_v)
  for (index_t l = 0; l < lines; ++l) {
    const index_t j = l % s.n2, k = l / s.n2;
    ProductSums line;
    for (index_t i = 0; i < s.n1; ++i) {
      const index_t m = s.index(i, j, k);
      const NodeProducts p = apply_node(s, Values{v}, i, j, k);
      z0[m] = p.a0;
      if (z1) z1[m] = p.a1;
      line.add(s.c0[m], v[m], p, r[m]);
    }
    d_v_v += line.d_v_v;
    r2_v += line.r2_v;
    a0_v_v += line.a0_v_v;
    r_v += line.r_v;
  }
  ProductSums total;
  total.d_v_v = d_v_v;
  total.r2_v = r2_v;
  total.a0_v_v = a0_v_v;
  total.r_v = r_v;
  return total;
}

// Calls line(j, k) for every grid line, in wavefronts j + k = const; the lines of one
// wavefront depend only on the previous one, so they are shared among the threads.
template <class Line>
void wavefront(const SplitView& s, bool reverse, int threads, Line&& line) {
  const index_t fronts = s.n2 + s.n3 - 1;
#pragma omp parallel num_threads(threads)
  for (index_t f = 0; f < fronts; ++f) {
    const index_t d = reverse ? fronts - 1 - f : f;
    const index_t j_lo = std::max<index_t>(0, d - (s.n3 - 1)),
                  j_hi = std::min<index_t>(d, s.n2 - 1);
#pragma omp for schedule(static)
    for (index_t j = j_lo; j <= j_hi; ++j) line(j, d - j);
  }
}

// y = (D + w R1)^-1 src; returns (D y, y) = (B^-1 src, src).
double lower_sweep(const SplitView& s, const double* src, double* y, double omega, int threads) {
  double dyy = 0.0;
  wavefront(s, false, threads, [&](index_t j, index_t k) {
    double prev = 0.0, acc = 0.0;
    for (index_t i = 0; i < s.n1; ++i) {
      const index_t m = s.index(i, j, k);
      const bool hy = j > 0, hz = k > 0;
      const Affine a = sweep_node(s.c0[m], src[m], s.lower[0][m], hy ? s.lower[1][m] : 0.0,
                                  hy ? y[m - s.n1] : 0.0, hz ? s.lower[2][m] : 0.0,
                                  hz ? y[m - s.n1 * s.n2] : 0.0, omega);
      prev = a.q + a.beta * prev;
      y[m] = prev;
      acc += s.c0[m] * prev * prev;
    }
#pragma omp atomic
    dyy += acc;
  });
  return dyy;
}

// v = (D + w R2)^-1 D y.
void upper_sweep(const SplitView& s, const double* y, double* v, double omega, int threads) {
  const index_t plane = s.n1 * s.n2;
  wavefront(s, true, threads, [&](index_t j, index_t k) {
    double prev = 0.0;
    for (index_t i = s.n1 - 1; i >= 0; --i) {
      const index_t m = s.index(i, j, k);
      const bool hx = i + 1 < s.n1, hy = j + 1 < s.n2, hz = k + 1 < s.n3;
      const Affine a = sweep_node(s.c0[m], s.c0[m] * y[m], hx ? s.lower[0][m + 1] : 0.0,
                                  hy ? s.lower[1][m + s.n1] : 0.0, hy ? v[m + s.n1] : 0.0,
                                  hz ? s.lower[2][m + plane] : 0.0, hz ? v[m + plane] : 0.0, omega);
      prev = a.q + a.beta * prev;
      v[m] = prev;
    }
  });
}

}  // namespace

int cpu_threads(int requested) {
#ifdef _OPENMP
  return requested > 0 ? requested : omp_get_max_threads();
#else
  (void)requested;
  return 1;
#endif
}

CpuBackend::CpuBackend(const SplitStencil& a, std::span<const double> f, std::span<double> x,
                       int threads)
    : view_(a.view()), f_(f), x_(x), threads_(cpu_threads(threads)) {
  const std::size_t n = a.size();
  r_.assign(n, 0.0);
  w_.assign(n, 0.0);
  y_.assign(n, 0.0);
  z0_.assign(n, 0.0);
  if (!a.self_adjoint()) z1_.assign(n, 0.0);
  for (std::size_t m = 0; m < n; ++m)
    if (a.c0()[m] == 0.0) x_[m] = 0.0;  // inactive nodes hold u = 0
}

double CpuBackend::rhs_norm2() {
  double ff = 0.0;
  const auto n = static_cast<index_t>(f_.size());
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : ff)
  for (index_t m = 0; m < n; ++m)
    if (view_.c0[m] != 0.0) ff += f_[m] * f_[m];
  return ff;
}

double CpuBackend::update_and_residual(double tau) {
  const SplitView& s = view_;
  const index_t n = s.size();
  if (tau != 0.0) {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (index_t m = 0; m < n; ++m) x_[m] = UpdatedValues{x_.data(), w_.data(), tau}(m);
  }
  double rr = 0.0;
  const index_t lines = s.n2 * s.n3;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : rr)
  for (index_t l = 0; l < lines; ++l) {
    const index_t j = l % s.n2, k = l / s.n2;
    for (index_t i = 0; i < s.n1; ++i) {
      const index_t m = s.index(i, j, k);
      if (s.c0[m] == 0.0) {
        r_[m] = 0.0;
        continue;
      }
      const NodeProducts p = apply_node(s, Values{x_.data()}, i, j, k);
      r_[m] = p.a0 + p.a1 - f_[m];
      rr += r_[m] * r_[m];
    }
  }
  return rr;
}

double CpuBackend::omega_from_residual() {
  const ProductSums d = apply(view_, r_.data(), r_.data(), z0_.data(), nullptr, threads_);
  return d.r2_v > 0.0 ? std::sqrt(d.d_v_v / d.r2_v) : 0.0;
}

Dots CpuBackend::correction(double omega) {
  lower_sweep(view_, r_.data(), y_.data(), omega, threads_);
  upper_sweep(view_, y_.data(), w_.data(), omega, threads_);
  const ProductSums a =
      apply(view_, w_.data(), r_.data(), z0_.data(), z1_.empty() ? nullptr : z1_.data(), threads_);
  Dots d;
  d.d_w_w = a.d_v_v;
  d.r2_w = a.r2_v;
  d.a0_w_w = a.a0_v_v;
  d.b_w_w = a.r_v;
  d.binv_a0 = lower_sweep(view_, z0_.data(), y_.data(), omega, threads_);
  if (!z1_.empty()) d.binv_a1 = lower_sweep(view_, z1_.data(), y_.data(), omega, threads_);
  return d;
}

}  // namespace solvent::matm
