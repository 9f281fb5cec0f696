#pragma once
// The operators the Jacobi tests of this folder use: one nonsymmetric tridiagonal matrix in
// dense, CSR and band storage, and a seven-point operator with an inactive node; each with
// its diagonal as the tests expect jacobi to read it.
#include <solvent/operator.hpp>

#include <solvent_test/reference_kernels.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace jacobi_test {

using solvent::krylov::testing::random_vector;

template <class T>
struct WithDiagonal {
  std::shared_ptr<const solvent::Operator> op;
  std::vector<T> diagonal;
};

// Tridiagonal, diagonal 3 + (a random entry of modulus at most sqrt 2): never zero.
template <class T>
std::vector<T> tridiagonal_diagonal(std::size_t n, double scale = 1.0) {
  auto d = random_vector<T>(n, 11);
  for (auto& e : d) e = scale * (T(3.0) + e);
  return d;
}

template <class T>
WithDiagonal<T> dense(std::size_t n, double scale = 1.0) {
  const auto d = tridiagonal_diagonal<T>(n, scale);
  const auto lower = random_vector<T>(n, 12), upper = random_vector<T>(n, 13);
  solvent::DenseMatrix<T> a(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    a(i, i) = d[i];
    if (i > 0) a(i, i - 1) = lower[i];
    if (i + 1 < n) a(i, i + 1) = upper[i];
  }
  return {std::make_shared<const solvent::Operator>(a), d};
}

template <class T>
WithDiagonal<T> csr(std::size_t n, double scale = 1.0) {
  const auto d = tridiagonal_diagonal<T>(n, scale);
  const auto lower = random_vector<T>(n, 12), upper = random_vector<T>(n, 13);
  solvent::CsrMatrix<T> a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    auto push = [&](std::size_t j, T v) {
      a.col_idx.push_back(static_cast<std::int32_t>(j));
      a.values.push_back(v);
    };
    if (i > 0) push(i - 1, lower[i]);
    push(i, d[i]);
    if (i + 1 < n) push(i + 1, upper[i]);
    a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
  }
  return {std::make_shared<const solvent::Operator>(a), d};
}

template <class T>
WithDiagonal<T> banded(std::size_t n, double scale = 1.0) {
  const auto d = tridiagonal_diagonal<T>(n, scale);
  const auto lower = random_vector<T>(n, 12), upper = random_vector<T>(n, 13);
  solvent::BandedMatrix<T> a(n, 1, 1);
  for (std::size_t i = 0; i < n; ++i) {
    a.at(i, i) = d[i];
    if (i > 0) a.at(i, i - 1) = lower[i];
    if (i + 1 < n) a.at(i, i + 1) = upper[i];
  }
  return {std::make_shared<const solvent::Operator>(a), d};
}

// 4 x 3 x 3 nodes, node 13 inactive (c0 = 0: its equation is u = 0, its diagonal 1).
inline constexpr std::size_t inactive_node = 13;

template <class T>
WithDiagonal<T> stencil(double scale = 1.0) {
  solvent::Stencil7<T> s(4, 3, 3);
  auto d = tridiagonal_diagonal<T>(s.size(), scale);
  d[inactive_node] = T(0.0);
  s.c[0] = d;
  d[inactive_node] = T(1.0);
  for (int k = 1; k < 7; ++k) s.c[k] = random_vector<T>(s.size(), 20 + k);
  return {std::make_shared<const solvent::Operator>(s), d};
}

}  // namespace jacobi_test
