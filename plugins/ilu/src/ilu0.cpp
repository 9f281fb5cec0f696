#include <solvent_ilu/ilu0.hpp>

#include <solvent/errors.hpp>
#include <solvent/scalar.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace solvent::ilu {

template <class T>
Ilu0<T>::Ilu0(const CsrMatrix<T>& a, std::string context)
    : context_(std::move(context)),
      row_ptr_(a.row_ptr.to_vector()),
      col_idx_(a.col_idx.to_vector()),
      lu_(a.values.to_vector()) {
  if (a.rows != a.cols)
    throw SolverError(
        fmt::format("{}: the matrix is {} x {}, not square", context_, a.rows, a.cols));
  diagonal_.resize(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i) {
    const auto first = col_idx_.begin() + row_ptr_[i];
    const auto last = col_idx_.begin() + row_ptr_[i + 1];
    const auto at = std::lower_bound(first, last, static_cast<std::int32_t>(i));
    if (at == last || *at != static_cast<std::int32_t>(i))
      throw SolverError(fmt::format(
          "{}: row {} has no diagonal entry (ILU(0) keeps A's pattern, so its pivot is zero)",
          context_, i));
    diagonal_[i] = static_cast<std::int32_t>(at - col_idx_.begin());
  }
  factor();
}

template <class T>
bool Ilu0<T>::same_pattern(const CsrMatrix<T>& b) const {
  return b.rows == rows() && b.cols == rows() && b.row_ptr == row_ptr_ && b.col_idx == col_idx_;
}

template <class T>
void Ilu0<T>::refactor(const CsrMatrix<T>& b) {
  std::copy(b.values.begin(), b.values.end(), lu_.begin());
  factor();
}

template <class T>
void Ilu0<T>::factor() {
  const std::size_t n = rows();
  // where[j]: the position of column j in the row being eliminated, -1 where it has none.
  std::vector<std::int32_t> where(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int32_t begin = row_ptr_[i], end = row_ptr_[i + 1];
    for (std::int32_t p = begin; p < end; ++p) where[col_idx_[p]] = p;
    // Row k of U is final once row k is done; l_ik = a_ik / u_kk, then row i -= l_ik row k of
    // U, kept to row i's pattern.
    for (std::int32_t p = begin; p < diagonal_[i]; ++p) {
      const std::int32_t k = col_idx_[p];
      const T l = lu_[p] / lu_[diagonal_[k]];
      lu_[p] = l;
      for (std::int32_t q = diagonal_[k] + 1; q < row_ptr_[k + 1]; ++q)
        if (const std::int32_t at = where[col_idx_[q]]; at >= 0) lu_[at] -= l * lu_[q];
    }
    for (std::int32_t p = begin; p < end; ++p) where[col_idx_[p]] = -1;
    if (lu_[diagonal_[i]] == T(0))
      throw SolverError(fmt::format("{}: zero pivot in row {}", context_, i));
  }
}

template <class T>
void Ilu0<T>::solve(std::span<const T> r, std::span<T> z) const {
  const std::size_t n = rows();
  // Row i reads r_i before it writes z_i and only z_j of rows already done, so r and z may
  // be one vector.
  for (std::size_t i = 0; i < n; ++i) {
    T s = r[i];
    for (std::int32_t p = row_ptr_[i]; p < diagonal_[i]; ++p) s -= lu_[p] * z[col_idx_[p]];
    z[i] = s;
  }
  for (std::size_t i = n; i-- > 0;) {
    T s = z[i];
    for (std::int32_t p = diagonal_[i] + 1; p < row_ptr_[i + 1]; ++p) s -= lu_[p] * z[col_idx_[p]];
    z[i] = s / lu_[diagonal_[i]];
  }
}

template class Ilu0<double>;
template class Ilu0<complex>;

}  // namespace solvent::ilu
