#pragma once
// Band matrix in LAPACK's general-band storage (column-major, leading dimension
// 2*kl + ku + 1, the first kl rows left free for the fill-in of partial pivoting), so
// gbtrf/gbtrs can factor it in place without a copy.
#include <cstddef>
#include <vector>

namespace solvent {

template <class T>
struct BandedMatrix {
  std::size_t n = 0;
  std::size_t kl = 0;   // sub-diagonals
  std::size_t ku = 0;   // super-diagonals
  std::vector<T> band;  // ldab() * n

  BandedMatrix() = default;
  BandedMatrix(std::size_t n_, std::size_t kl_, std::size_t ku_)
      : n(n_), kl(kl_), ku(ku_), band((2 * kl_ + ku_ + 1) * n_, T{}) {}

  std::size_t ldab() const { return 2 * kl + ku + 1; }
  bool in_band(std::size_t i, std::size_t j) const { return i <= j + kl && j <= i + ku; }
  // Entry A(i, j), valid only where in_band(i, j).
  T& at(std::size_t i, std::size_t j) { return band[j * ldab() + kl + ku + i - j]; }
  const T& at(std::size_t i, std::size_t j) const { return band[j * ldab() + kl + ku + i - j]; }
};

}  // namespace solvent
