#include "operator_rows.hpp"

#include <fmt/format.h>

#include <cmath>

namespace acme {

using solvent::CsrMatrix;
using solvent::DenseMatrix;
using solvent::Operator;

namespace {

void require_square(std::size_t rows, std::size_t cols) {
  if (rows != cols)
    throw solvent::SolverError(
        fmt::format("acme-jacobi: matrix is {} x {}, not square", rows, cols));
}

template <class T>
T dense_diagonal_entry(const DenseMatrix<T>& a, std::size_t i) {
  return a(i, i);
}

template <class T>
T csr_diagonal_entry(const CsrMatrix<T>& a, std::size_t i) {
  for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
    if (std::size_t(a.col_idx[std::size_t(k)]) == i) return a.values[std::size_t(k)];
  return T{};
}

}  // namespace

template <class T>
std::vector<T> diagonal_of(const Operator& op) {
  std::vector<T> d;
  auto collect = [&](std::size_t n, auto entry) {
    d.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      d[i] = entry(i);
      if (d[i] == T{})
        throw solvent::SolverError(fmt::format(
            "acme-jacobi: zero diagonal entry in row {}; Jacobi divides by the diagonal", i));
    }
  };
  if (const auto* a = std::get_if<DenseMatrix<T>>(&op)) {
    require_square(a->rows, a->cols);
    collect(a->rows, [&](std::size_t i) { return dense_diagonal_entry(*a, i); });
  } else if (const auto* c = std::get_if<CsrMatrix<T>>(&op)) {
    require_square(c->rows, c->cols);
    collect(c->rows, [&](std::size_t i) { return csr_diagonal_entry(*c, i); });
  } else {
    throw solvent::UnsupportedOperator(fmt::format(
        "acme-jacobi takes a dense or CSR matrix of {} scalars, not a {} {} operator",
        solvent::to_string(solvent::scalar_kind_of<T>), solvent::to_string(solvent::scalar_of(op)),
        solvent::to_string(solvent::kind_of(op))));
  }
  return d;
}

template <class T>
double residual(const Operator& op, std::span<const T> b, std::span<const T> x, std::span<T> r) {
  double norm2 = 0.0;
  if (const auto* a = std::get_if<DenseMatrix<T>>(&op)) {
    for (std::size_t i = 0; i < a->rows; ++i) {
      T s = b[i];
      const T* row = a->values.data() + i * a->cols;
      for (std::size_t j = 0; j < a->cols; ++j) s -= row[j] * x[j];
      r[i] = s;
      norm2 += std::norm(s);
    }
  } else {
    const auto& c = std::get<CsrMatrix<T>>(op);
    for (std::size_t i = 0; i < c.rows; ++i) {
      T s = b[i];
      for (auto k = c.row_ptr[i]; k < c.row_ptr[i + 1]; ++k)
        s -= c.values[std::size_t(k)] * x[std::size_t(c.col_idx[std::size_t(k)])];
      r[i] = s;
      norm2 += std::norm(s);
    }
  }
  return std::sqrt(norm2);
}

template std::vector<double> diagonal_of<double>(const Operator&);
template std::vector<solvent::complex> diagonal_of<solvent::complex>(const Operator&);
template double residual<double>(const Operator&, std::span<const double>, std::span<const double>,
                                 std::span<double>);
template double residual<solvent::complex>(const Operator&, std::span<const solvent::complex>,
                                           std::span<const solvent::complex>,
                                           std::span<solvent::complex>);

}  // namespace acme
