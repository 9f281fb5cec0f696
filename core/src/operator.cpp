#include <solvent/errors.hpp>
#include <solvent/operator.hpp>

#include <algorithm>
#include <cmath>

namespace solvent {
namespace {
template <class>
struct Traits;
template <class T>
struct Traits<DenseMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Dense;
  static std::size_t rows(const DenseMatrix<T>& m) { return m.rows; }
};
template <class T>
struct Traits<CsrMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Csr;
  static std::size_t rows(const CsrMatrix<T>& m) { return m.rows; }
};
template <class T>
struct Traits<Stencil7<T>> {
  static constexpr OperatorKind kind = OperatorKind::Stencil7;
  static std::size_t rows(const Stencil7<T>& m) { return m.size(); }
};
template <class T>
struct Traits<BandedMatrix<T>> {
  static constexpr OperatorKind kind = OperatorKind::Banded;
  static std::size_t rows(const BandedMatrix<T>& m) { return m.n; }
};
template <class M>
struct ScalarOf;
template <template <class> class M, class T>
struct ScalarOf<M<T>> {
  static constexpr ScalarKind value = scalar_kind_of<T>;
};
}  // namespace

OperatorKind kind_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::kind; }, op);
}
ScalarKind scalar_of(const Operator& op) {
  return std::visit([](const auto& m) { return ScalarOf<std::decay_t<decltype(m)>>::value; }, op);
}
std::size_t rows_of(const Operator& op) {
  return std::visit([](const auto& m) { return Traits<std::decay_t<decltype(m)>>::rows(m); }, op);
}

namespace {
// y_i = (A x)_i, row by row, for each storage.
template <class T>
T row_product(const DenseMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  for (std::size_t j = 0; j < a.cols; ++j) s += a(i, j) * x[j];
  return s;
}
template <class T>
T row_product(const CsrMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) s += a.values[p] * x[a.col_idx[p]];
  return s;
}
template <class T>
T row_product(const BandedMatrix<T>& a, std::size_t i, std::span<const T> x) {
  T s{};
  const std::size_t first = i > a.kl ? i - a.kl : 0;
  const std::size_t last = std::min(a.n - 1, i + a.ku);
  for (std::size_t j = first; j <= last; ++j) s += a.at(i, j) * x[j];
  return s;
}
template <class T>
T row_product(const Stencil7<T>& a, std::size_t m, std::span<const T> x) {
  if (a.c[0][m] == T{}) return x[m];  // an inactive node's equation is u = 0
  const std::size_t i = m % a.n1, j = (m / a.n1) % a.n2, k = m / (a.n1 * a.n2);
  const std::size_t layer = a.n1 * a.n2;
  T s = a.c[0][m] * x[m];
  if (i > 0) s -= a.c[1][m] * x[m - 1];
  if (i + 1 < a.n1) s -= a.c[2][m] * x[m + 1];
  if (j > 0) s -= a.c[3][m] * x[m - a.n1];
  if (j + 1 < a.n2) s -= a.c[4][m] * x[m + a.n1];
  if (k > 0) s -= a.c[5][m] * x[m - layer];
  if (k + 1 < a.n3) s -= a.c[6][m] * x[m + layer];
  return s;
}

template <class T>
double residual_of(const Operator& op, std::span<const T> b, std::span<const T> x) {
  return std::visit(
      [&](const auto& a) -> double {
        using M = std::decay_t<decltype(a)>;
        if constexpr (ScalarOf<M>::value != scalar_kind_of<T>) {
          throw UnsupportedOperator("relative_residual: the vectors' scalar type is not the operator's");
        } else {
          double r2 = 0, b2 = 0;
          for (std::size_t i = 0; i < b.size(); ++i) {
            r2 += std::norm(b[i] - row_product(a, i, x));
            b2 += std::norm(b[i]);
          }
          return b2 > 0 ? std::sqrt(r2 / b2) : std::sqrt(r2);
        }
      },
      op);
}
}  // namespace

double relative_residual(const Operator& a, std::span<const double> b, std::span<const double> x) {
  return residual_of<double>(a, b, x);
}
double relative_residual(const Operator& a, std::span<const complex> b,
                         std::span<const complex> x) {
  return residual_of<complex>(a, b, x);
}

}  // namespace solvent
