#pragma once
// The minimal-residual coefficients of one BiCGSTAB(l) cycle (l <= 16), on the host: gamma
// minimising ||r_0 - sum_j gamma_j r_j|| over j = 1..l, from the Gram matrix
// G_ij = <r_i, r_j> and c_i = <r_i, r_0> (i, j = 1..l).
//
// Within a cycle r_1..r_l are close to B r_0, ..., B^l r_0 and often nearly dependent when
// l = 8. Solving G gamma = c by elimination then gives coefficients of 10^10 and more whose
// rounding, eps |gamma_j| ||r_j||, the updated residual never sees: it drifts from
// r0 - B y, and the iterate y can grow without bound while the updated residual looks small.
// So G is scaled to unit diagonal and factored by Cholesky with diagonal pivoting, stopped
// where the largest remaining pivot - the squared sine of the angle between some r_j and the
// span of those kept - is below `dependent`: such an r_j adds a direction that rounding in
// G (about eps times the number of terms, relative) has already blurred, and its
// coefficient is 0. r_l is always kept, and first: its coefficient omega carries the next
// cycle's rho (rho = -omega rho), which a polynomial of lower degree would lose.
// Hand-written because LAPACK's pivoted Cholesky (?pstrf) chooses every pivot itself and
// cannot keep r_l; the system is at most 16 x 16.
#include <solvent_krylov/scalar_math.hpp>

#include <cmath>
#include <complex>
#include <cstddef>
#include <numeric>
#include <utility>
#include <vector>

namespace solvent::krylov {

// Smallest squared sine kept: a coefficient of the scaled system is then at most about
// ||r_0|| / sqrt(dependent) = 10^6 ||r_0||, its rounding 10^-10 of ||r_0||.
inline constexpr double dependent = 1e-12;

// g: l x l row-major Hermitian Gram matrix; c: right-hand side, replaced by gamma. Returns
// the number of r_j kept; 0 when r_l vanished or G is not finite (gamma is then unusable).
template <class T>
std::size_t solve_minimal_residual(std::vector<T> g, std::vector<T>& c, std::size_t l) {
  std::vector<double> scale(l);
  for (std::size_t i = 0; i < l; ++i) {
    scale[i] = std::sqrt(real_part(g[i * l + i]));
    if (!std::isfinite(scale[i])) return 0;
  }
  if (!(scale[l - 1] > 0.0)) return 0;
  // order[k]: which r_j (0-based, j - 1) is the k-th pivot; r_l first.
  std::vector<std::size_t> order(l);
  order[0] = l - 1;
  std::iota(order.begin() + 1, order.end(), std::size_t(0));
  // a: the scaled Gram matrix in pivot order; r_j with ||r_j|| = 0 get a zero row and column
  // and are never pivots.
  auto scaled = [&](std::size_t i, std::size_t j) {
    if (scale[i] == 0.0 || scale[j] == 0.0) return T(0);
    return i == j ? T(1) : g[i * l + j] / (scale[i] * scale[j]);
  };
  std::vector<T> a(l * l);
  for (std::size_t i = 0; i < l; ++i)
    for (std::size_t j = 0; j < l; ++j) a[i * l + j] = scaled(order[i], order[j]);
  // Outer-product Cholesky, a = L L^H in the lower triangle.
  std::size_t kept = 0;
  for (; kept < l; ++kept) {
    const std::size_t k = kept;
    std::size_t p = k;
    for (std::size_t i = k + 1; i < l && k > 0; ++i)
      if (real_part(a[i * l + i]) > real_part(a[p * l + p])) p = i;
    const double pivot = real_part(a[p * l + p]);
    if (!std::isfinite(pivot)) return 0;
    if (!(pivot > dependent)) break;
    if (p != k) {
      for (std::size_t j = 0; j < l; ++j) std::swap(a[k * l + j], a[p * l + j]);
      for (std::size_t i = 0; i < l; ++i) std::swap(a[i * l + k], a[i * l + p]);
      std::swap(order[k], order[p]);
    }
    const double d = std::sqrt(pivot);
    a[k * l + k] = T(d);
    for (std::size_t i = k + 1; i < l; ++i) a[i * l + k] /= d;
    for (std::size_t i = k + 1; i < l; ++i)
      for (std::size_t j = k + 1; j <= i; ++j) {
        a[i * l + j] -= a[i * l + k] * conjugate(a[j * l + k]);
        a[j * l + i] = conjugate(a[i * l + j]);
      }
  }
  // L L^H z = (scaled c) over the kept pivots, then gamma = z / scale.
  std::vector<T> z(kept);
  for (std::size_t i = 0; i < kept; ++i) {
    T sum = c[order[i]] / scale[order[i]];
    for (std::size_t j = 0; j < i; ++j) sum -= a[i * l + j] * z[j];
    z[i] = sum / real_part(a[i * l + i]);
  }
  for (std::size_t i = kept; i-- > 0;) {
    T sum = z[i];
    for (std::size_t j = i + 1; j < kept; ++j) sum -= conjugate(a[j * l + i]) * z[j];
    z[i] = sum / real_part(a[i * l + i]);
  }
  for (std::size_t j = 0; j < l; ++j) c[j] = T(0);
  for (std::size_t i = 0; i < kept; ++i) c[order[i]] = z[i] / scale[order[i]];
  return kept;
}

}  // namespace solvent::krylov
