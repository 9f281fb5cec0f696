#pragma once
// Gaussian elimination with partial pivoting for the l x l least-squares systems of
// BiCGSTAB(l) (l <= 16), on the host.
#include <cmath>
#include <complex>
#include <cstddef>
#include <utility>
#include <vector>

namespace solvent::krylov {

// Solves a x = b in place (a is n x n, row-major; b becomes x). False when a pivot is zero
// or not finite, relative to the largest entry of a.
template <class T>
bool solve_small_dense(std::vector<T>& a, std::vector<T>& b, std::size_t n) {
  double largest = 0.0;
  for (const T& e : a) largest = std::max(largest, std::abs(e));
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(a[i * n + k]) > std::abs(a[p * n + k])) p = i;
    if (!(std::abs(a[p * n + k]) > 1e-300 * largest)) return false;
    if (p != k) {
      for (std::size_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
      std::swap(b[k], b[p]);
    }
    for (std::size_t i = k + 1; i < n; ++i) {
      const T f = a[i * n + k] / a[k * n + k];
      for (std::size_t j = k; j < n; ++j) a[i * n + j] -= f * a[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (std::size_t k = n; k-- > 0;) {
    T sum = b[k];
    for (std::size_t j = k + 1; j < n; ++j) sum -= a[k * n + j] * b[j];
    b[k] = sum / a[k * n + k];
  }
  return true;
}

}  // namespace solvent::krylov
