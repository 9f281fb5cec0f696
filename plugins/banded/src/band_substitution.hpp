#pragma once
// Forward and back substitution with the band LU factors that gbtrf leaves in LAPACK band
// storage (L's multipliers below the diagonal row kl + ku, U in rows 0..kl + ku, pivots
// 1-based), for one right-hand side. This is what gbtrs computes, written out because the
// reference gbtrs makes one BLAS dger call per column to apply L: with a narrow band the
// calls' overhead, not the arithmetic, dominated a step of the 1D model.
//
// Both sweeps are one long dependency chain through x, so they go row by row: each row's
// sum over its far entries (ready early, overlapped by the processor) is kept apart from
// the one term that waits for the previous row, whose value stays in a register, and U's
// diagonal comes inverted (a multiply, not a divide, on the chain). The row form of the
// forward sweep holds between row interchanges (gbtrf does not apply an interchange to
// earlier columns of L, so each must happen at its place in the sweep): columns that
// swap are applied in gbtrs's column form, the runs between them in row form. In the 1D
// model the only interchanges are at the last grid point of a block, where the Neumann
// row's doubled coupling outweighs the reduced diagonal. Each row of U is swept only as
// far as its last non-zero (u_reach), not the kl + ku that pivoting allows for.
#include <algorithm>
#include <cstddef>

namespace solvent::banded {

template <class T>
struct BandLu {
  const T* ab;  // gbtrf's output, leading dimension ldab
  std::size_t ldab, n, kl, ku;
  const int* ipiv;
  const std::size_t* u_reach;  // u_reach[i]: largest k with U(i, i + k) != 0
  const T* inverse_diagonal;   // 1 / U(i, i)

  T at(std::size_t i, std::size_t j) const { return ab[j * ldab + kl + ku + i - j]; }
};

template <class T>
void band_lu_substitute(const BandLu<T>& f, T* x) {
  const std::size_t n = f.n, kl = f.kl;
  auto swaps = [&](std::size_t j) { return f.ipiv[j] != int(j + 1); };
  // Invariant: every contribution of the columns before j has been applied to x.
  for (std::size_t j = 0; j + 1 < n;) {
    if (swaps(j)) {
      const auto p = std::size_t(f.ipiv[j] - 1);
      std::swap(x[p], x[j]);
      const std::size_t lm = std::min(kl, n - 1 - j);
      for (std::size_t i = 1; i <= lm; ++i) x[j + i] -= f.at(j + i, j) * x[j];
      ++j;
      continue;
    }
    std::size_t e = j + 1;  // the run j .. e-1 has no interchange
    while (e < n && !swaps(e)) ++e;
    T previous = x[j];
    for (std::size_t i = j + 1; i < e; ++i) {
      T far = x[i];
      for (std::size_t k = std::min(kl, i - j); k >= 2; --k) far -= f.at(i, i - k) * x[i - k];
      previous = far - f.at(i, i - 1) * previous;
      x[i] = previous;
    }
    // What the run's last columns owe the rows from e on.
    for (std::size_t c = e > j + kl ? e - kl : j; c < e; ++c)
      for (std::size_t i = e - c; i <= std::min(kl, n - 1 - c); ++i)
        x[c + i] -= f.at(c + i, c) * x[c];
    j = e;
  }
  T next{};
  for (std::size_t i = n; i-- > 0;) {
    T far = x[i];
    const std::size_t reach = f.u_reach[i];
    for (std::size_t k = reach; k >= 2; --k) far -= f.at(i, i + k) * x[i + k];
    if (reach >= 1) far -= f.at(i, i + 1) * next;
    next = far * f.inverse_diagonal[i];
    x[i] = next;
  }
}

}  // namespace solvent::banded
