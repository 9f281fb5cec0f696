#pragma once
// Forward and back substitution with the band LU factors that gbtrf leaves in LAPACK band
// storage (L's multipliers below the diagonal row kl + ku, U in rows 0..kl + ku, pivots
// 1-based), for one right-hand side. This is what gbtrs computes, written out because the
// reference gbtrs makes one BLAS dger call per column to apply L: with kl = 4 (the 1D
// model) the calls' overhead, not the arithmetic, was 90% of a step. U's diagonal comes in
// inverted (made once per factorization): the back substitution is one long dependency
// chain, and a multiply is several times shorter than a divide on it.
#include <algorithm>
#include <cstddef>

namespace solvent::banded {

template <class T>
void band_lu_substitute(const T* ab, std::size_t ldab, std::size_t n, std::size_t kl, std::size_t ku,
                        const int* ipiv, const T* inverse_diagonal, T* x) {
  const std::size_t kd = kl + ku;  // row of the diagonal
  for (std::size_t j = 0; j + 1 < n; ++j) {
    const auto p = std::size_t(ipiv[j] - 1);
    if (p != j) std::swap(x[p], x[j]);
    const T xj = x[j];
    const T* l = ab + j * ldab + kd;
    const std::size_t lm = std::min(kl, n - 1 - j);
    for (std::size_t i = 1; i <= lm; ++i) x[j + i] -= l[i] * xj;
  }
  for (std::size_t j = n; j-- > 0;) {
    const T* u = ab + j * ldab + kd;  // u[-k] = U(j - k, j)
    const T xj = x[j] *= inverse_diagonal[j];
    const std::size_t top = std::min(kd, j);
    for (std::size_t k = 1; k <= top; ++k) x[j - k] -= u[-std::ptrdiff_t(k)] * xj;
  }
}

}  // namespace solvent::banded
