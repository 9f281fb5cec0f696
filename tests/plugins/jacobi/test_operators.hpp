#pragma once
// The operators the Jacobi tests of this folder use: one nonsymmetric tridiagonal matrix in
// dense, CSR and band storage, and a seven-point operator with an inactive node; each with
// its diagonal as the tests expect jacobi to read it.
#include <solvent/operator.hpp>

#include <solvent_test/reference_kernels.hpp>
#include <solvent_test/test_matrices.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace jacobi_test {

using solvent::test::random_vector;

template <class T>
struct WithDiagonal {
  std::shared_ptr<const solvent::Operator> op;
  std::vector<T> diagonal;
};

// One tridiagonal matrix, diagonal scale (3 + a random entry of modulus at most sqrt 2):
// never zero.
template <class T>
solvent::test::Tridiagonal<T> tridiagonal(std::size_t n, double scale) {
  return solvent::test::random_tridiagonal<T>(n, 3.0, scale);
}

template <class T>
WithDiagonal<T> dense(std::size_t n, double scale = 1.0) {
  const auto t = tridiagonal<T>(n, scale);
  solvent::DenseMatrix<T> a(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    a(i, i) = t.diagonal[i];
    if (i > 0) a(i, i - 1) = t.lower[i];
    if (i + 1 < n) a(i, i + 1) = t.upper[i];
  }
  return {std::make_shared<const solvent::Operator>(a), t.diagonal};
}

template <class T>
WithDiagonal<T> csr(std::size_t n, double scale = 1.0) {
  const auto t = tridiagonal<T>(n, scale);
  return {std::make_shared<const solvent::Operator>(solvent::test::tridiagonal_csr(t)), t.diagonal};
}

template <class T>
WithDiagonal<T> banded(std::size_t n, double scale = 1.0) {
  const auto t = tridiagonal<T>(n, scale);
  solvent::BandedMatrix<T> a(n, 1, 1);
  for (std::size_t i = 0; i < n; ++i) {
    a.at(i, i) = t.diagonal[i];
    if (i > 0) a.at(i, i - 1) = t.lower[i];
    if (i + 1 < n) a.at(i, i + 1) = t.upper[i];
  }
  return {std::make_shared<const solvent::Operator>(a), t.diagonal};
}

// 4 x 3 x 3 nodes, node 13 inactive (c0 = 0: its equation is u = 0, its diagonal 1).
inline constexpr std::size_t inactive_node = 13;

template <class T>
WithDiagonal<T> stencil(double scale = 1.0) {
  solvent::Stencil7<T> s(4, 3, 3);
  auto d = tridiagonal<T>(s.size(), scale).diagonal;
  d[inactive_node] = T(0.0);
  s.c[0] = solvent::HostArray<T>(d);
  d[inactive_node] = T(1.0);
  for (int k = 1; k < 7; ++k) s.c[k] = solvent::HostArray<T>(random_vector<T>(s.size(), 20 + k));
  return {std::make_shared<const solvent::Operator>(s), d};
}

}  // namespace jacobi_test
