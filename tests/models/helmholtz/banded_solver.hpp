#pragma once
// Gaussian elimination with partial pivoting in band storage: an exact solver for the
// small finite-element systems of these tests, independent of the Krylov plugins.
#include <solvent/csr_matrix.hpp>
#include <solvent/scalar.hpp>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace solvent::helmholtz::test {

inline std::vector<complex> solve_banded(const CsrMatrix<complex>& a, std::vector<complex> b) {
  const std::size_t n = a.rows;
  std::size_t kl = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      kl = std::max<std::size_t>(kl, std::abs(static_cast<long>(i) - a.col_idx[p]));
  // Row i keeps columns i - kl .. i + 2 kl: pivoting fills kl more above the diagonal.
  const std::size_t width = 3 * kl + 1;
  std::vector<complex> band(n * width);
  auto at = [&](std::size_t i, std::size_t j) -> complex& { return band[i * width + j + kl - i]; };
  for (std::size_t i = 0; i < n; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) at(i, a.col_idx[p]) = a.values[p];
  for (std::size_t c = 0; c < n; ++c) {
    const std::size_t last_row = std::min(n - 1, c + kl), last_col = std::min(n - 1, c + 2 * kl);
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r <= last_row; ++r)
      if (std::abs(at(r, c)) > std::abs(at(pivot, c))) pivot = r;
    if (pivot != c) {
      for (std::size_t j = c; j <= last_col; ++j) std::swap(at(pivot, j), at(c, j));
      std::swap(b[pivot], b[c]);
    }
    for (std::size_t r = c + 1; r <= last_row; ++r) {
      const complex f = at(r, c) / at(c, c);
      if (f == complex{}) continue;
      for (std::size_t j = c; j <= last_col; ++j) at(r, j) -= f * at(c, j);
      b[r] -= f * b[c];
    }
  }
  for (std::size_t i = n; i-- > 0;) {
    complex s = b[i];
    for (std::size_t j = i + 1; j <= std::min(n - 1, i + 2 * kl); ++j) s -= at(i, j) * b[j];
    b[i] = s / at(i, i);
  }
  return b;
}

}  // namespace solvent::helmholtz::test
