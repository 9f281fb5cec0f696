#include "src/inverse_diagonal.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace solvent::jacobi {
namespace {

template <class T>
std::vector<T> diagonal_of(const DenseMatrix<T>& a, const char* plugin) {
  if (a.rows != a.cols)
    throw SolverError(fmt::format("{}: the matrix is {} x {}, not square", plugin, a.rows, a.cols));
  std::vector<T> d(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i) d[i] = a(i, i);
  return d;
}

template <class T>
std::vector<T> diagonal_of(const CsrMatrix<T>& a, const char* plugin) {
  // Over ranks the rank's rows and their own unknowns: local row i's diagonal is column i.
  if (!a.square())
    throw SolverError(fmt::format("{}: the matrix is {} x {}, not square", plugin, a.rows, a.cols));
  std::vector<T> d(a.rows, T(0));
  for (std::size_t i = 0; i < a.rows; ++i) {
    const auto first = a.col_idx.begin() + a.row_ptr[i];
    const auto last = a.col_idx.begin() + a.row_ptr[i + 1];
    const auto at = std::lower_bound(first, last, static_cast<std::int32_t>(i));
    if (at != last && *at == static_cast<std::int32_t>(i)) d[i] = a.values[at - a.col_idx.begin()];
  }
  return d;
}

template <class T>
std::vector<T> diagonal_of(const BandedMatrix<T>& a, const char*) {
  std::vector<T> d(a.n);
  for (std::size_t i = 0; i < a.n; ++i) d[i] = a.at(i, i);
  return d;
}

template <class T>
std::vector<T> diagonal_of(const Stencil7<T>& a, const char*) {
  std::vector<T> d(a.c[0].begin(), a.c[0].end());
  for (auto& c0 : d)
    if (c0 == T(0)) c0 = T(1);
  return d;
}

template <class T>
Vector invert(std::vector<T> d, const char* plugin) {
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == T(0))
      throw SolverError(
          fmt::format("{}: the diagonal of row {} of the matrix is zero", plugin, i + 1));
    d[i] = T(1) / d[i];
  }
  return d;
}

}  // namespace

Vector inverse_diagonal(const Operator& a, const char* plugin) {
  return std::visit(
      [&](const auto& m) -> Vector {
        if constexpr (requires { m.get(); })
          throw UnsupportedOperator(
              fmt::format("{}: a matrix-free operator has no diagonal to take", plugin));
        else
          return invert(diagonal_of(m, plugin), plugin);
      },
      a);
}

}  // namespace solvent::jacobi
