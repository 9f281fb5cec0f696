#include "cpu/gepp_cpu_solver.hpp"
#include "src/square_matrix.hpp"

#include <solvent_dense/gepp_arithmetic.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace solvent::dense {

namespace {

// Eliminates below the diagonal of the n x w row-major array `a` (w = n for an LU
// factorisation, n + 1 for the augmented matrix), recording the pivot row of each step.
// The multipliers are stored in place of the eliminated entries.
template <class T>
void eliminate_columns(T* a, std::size_t n, std::size_t w, std::vector<std::size_t>& pivot) {
  pivot.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    double best = pivot_magnitude(a[k * w + k]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double v = pivot_magnitude(a[i * w + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    const T piv = a[p * w + k];
    if (!usable_pivot(piv))
      throw SolverError(fmt::format(
          "gepp-cpu: singular matrix: pivot {} at elimination step {} of {} (column {})",
          std::abs(piv), k + 1, n, k));
    pivot[k] = p;
    if (p != k)
      for (std::size_t j = 0; j < w; ++j) std::swap(a[k * w + j], a[p * w + j]);
    const T* rk = a + k * w;
    for (std::size_t i = k + 1; i < n; ++i) {
      T* ri = a + i * w;
      const T l = multiplier(ri[k], rk[k]);
      ri[k] = l;
      for (std::size_t j = k + 1; j < w; ++j) ri[j] = eliminate(ri[j], l, rk[j]);
    }
  }
}

// Back substitution on the upper triangle of the row-major n x w array; y holds the
// transformed right-hand side on entry and the solution on exit.
template <class T>
void back_substitute(const T* a, std::size_t n, std::size_t w, T* y) {
  for (std::size_t ii = n; ii-- > 0;) {
    T s = y[ii];
    for (std::size_t j = ii + 1; j < n; ++j) s = eliminate(s, a[ii * w + j], y[j]);
    y[ii] = s / a[ii * w + ii];
  }
}

template <class T>
const DenseMatrix<T>& dense_of(const Operator& op) {
  return std::get<DenseMatrix<T>>(op);
}

}  // namespace

GeppCpuSolver::GeppCpuSolver(const PluginContext& ctx) : DirectSolver(ctx) {}

std::vector<OperatorForm> GeppCpuSolver::forms() const {
  return {{OperatorKind::Dense, ScalarKind::Real}, {OperatorKind::Dense, ScalarKind::Complex}};
}

void GeppCpuSolver::load(const Operator& op) { n_ = square_order(op, "gepp-cpu"); }

void GeppCpuSolver::factor() {
  auto factor_as = [&](const auto& m, auto& lu) {
    lu = m.values;
    eliminate_columns(lu.data(), n_, n_, pivot_);
  };
  if (scalar_of(op()) == ScalarKind::Real)
    factor_as(dense_of<double>(op()), lu_.real);
  else
    factor_as(dense_of<complex>(op()), lu_.complex);
}

template <class T>
void GeppCpuSolver::substitute_as(std::span<const T> b, std::span<T> x) {
  const std::size_t n = n_;
  const auto& lu = lu_.get<T>();
  // eliminate_columns() swaps whole rows, multipliers included, so all row exchanges apply to b
  // first; then each b entry receives the same updates, in the same order, as in the
  // augmented-matrix path — the two paths agree bit for bit.
  std::vector<T> y(b.begin(), b.end());
  for (std::size_t k = 0; k < n; ++k) std::swap(y[k], y[pivot_[k]]);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = k + 1; i < n; ++i) y[i] = eliminate(y[i], lu[i * n + k], y[k]);
  back_substitute(lu.data(), n, n, y.data());
  std::copy(y.begin(), y.end(), x.begin());
}

// De Luca et al.'s path: a fresh augmented matrix [A | b] eliminated on every solve.
template <class T>
void GeppCpuSolver::factor_and_solve_as(std::span<const T> b, std::span<T> x) {
  const auto& a = dense_of<T>(op());
  const std::size_t n = n_, w = n + 1;
  std::vector<T> aug(n * w);
  for (std::size_t i = 0; i < n; ++i) {
    std::copy_n(a.values.data() + i * n, n, aug.data() + i * w);
    aug[i * w + n] = b[i];
  }
  eliminate_columns(aug.data(), n, w, pivot_);
  std::vector<T> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = aug[i * w + n];
  back_substitute(aug.data(), n, w, y.data());
  std::copy(y.begin(), y.end(), x.begin());
}

void GeppCpuSolver::substitute(std::span<const double> b, std::span<double> x) {
  substitute_as(b, x);
}
void GeppCpuSolver::substitute(std::span<const complex> b, std::span<complex> x) {
  substitute_as(b, x);
}
void GeppCpuSolver::factor_and_solve(std::span<const double> b, std::span<double> x) {
  factor_and_solve_as(b, x);
}
void GeppCpuSolver::factor_and_solve(std::span<const complex> b, std::span<complex> x) {
  factor_and_solve_as(b, x);
}

}  // namespace solvent::dense
