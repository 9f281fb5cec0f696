#include "src/inverse_diagonal.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace solvent::jacobi {
namespace {

std::string describe(OperatorForm f) {
  return fmt::format("{} {}", to_string(f.kind), to_string(f.scalar));
}

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
  if (a.rows != a.cols)
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
  std::vector<T> d(a.c[0]);
  for (auto& c0 : d)
    if (c0 == T(0)) c0 = T(1);
  return d;
}

template <class T>
Vector invert(std::vector<T> d, const char* plugin) {
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (d[i] == T(0))
      throw SolverError(fmt::format("{}: the diagonal of row {} is zero", plugin, i));
    d[i] = T(1) / d[i];
  }
  return d;
}

}  // namespace

void require_form(const Operator& a, const std::vector<OperatorForm>& forms, const char* plugin) {
  const OperatorForm given = form_of(a);
  if (std::find(forms.begin(), forms.end(), given) != forms.end()) return;
  std::string taken;
  for (const auto& f : forms) taken += (taken.empty() ? "" : ", ") + describe(f);
  throw UnsupportedOperator(
      fmt::format("{}: cannot use a {} operator (takes {})", plugin, describe(given), taken));
}

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

void check_apply(std::optional<ScalarKind> set_up_for, ScalarKind given, std::size_t n,
                 std::size_t r_size, std::size_t z_size, const char* plugin) {
  if (!set_up_for) throw SolverError(fmt::format("{}: apply() before setup()", plugin));
  if (given != *set_up_for)
    throw UnsupportedOperator(fmt::format("{}: set up for a {} operator, applied to {} vectors",
                                          plugin, to_string(*set_up_for), to_string(given)));
  if (r_size != n || z_size != n)
    throw SolverError(fmt::format("{}: vectors of length {} and {} for a {} x {} operator", plugin,
                                  r_size, z_size, n, n));
}

}  // namespace solvent::jacobi
