#pragma once
// Matrices the Krylov and preconditioner tests and benchmarks generate themselves (no files,
// any size): a complex symmetric Helmholtz operator on a box (and a right-hand side for it), a
// real convection-diffusion operator, the same Laplacian as a Stencil7, and a random
// tridiagonal matrix.
#include "reference_kernels.hpp"

#include <solvent/csr_matrix.hpp>
#include <solvent/scalar.hpp>
#include <solvent/stencil7.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace solvent::test {

// Seven-point finite differences on an n1 x n2 x n3 grid of spacing h = 1/(n1 + 1), for
//   -lap u - k^2 u  with  du/dn - i k u = 0  on the faces (one-sided, folded into the
// diagonal as -i k / h per boundary face). Complex symmetric, not Hermitian.
inline CsrMatrix<complex> helmholtz_box(std::size_t n1, std::size_t n2, std::size_t n3, double k) {
  const double h = 1.0 / static_cast<double>(n1 + 1);
  const double inv_h2 = 1.0 / (h * h);
  CsrMatrix<complex> a;
  a.rows = a.cols = n1 * n2 * n3;
  a.row_ptr.reserve(a.rows + 1);
  a.col_idx.reserve(7 * a.rows);
  a.values.reserve(7 * a.rows);
  a.row_ptr.push_back(0);
  const std::array<std::size_t, 3> n{n1, n2, n3};
  for (std::size_t kz = 0; kz < n3; ++kz)
    for (std::size_t j = 0; j < n2; ++j)
      for (std::size_t i = 0; i < n1; ++i) {
        const std::size_t m = i + n1 * (j + n2 * kz);
        const std::array<std::size_t, 3> c{i, j, kz};
        const std::array<std::size_t, 3> stride{1, n1, n1 * n2};
        int boundary_faces = 0;
        auto push = [&](std::size_t col, complex v) {
          a.col_idx.push_back(static_cast<std::int32_t>(col));
          a.values.push_back(v);
        };
        // Columns in increasing order: -z, -y, -x, diagonal, +x, +y, +z.
        for (int d = 2; d >= 0; --d) {
          if (c[d] > 0)
            push(m - stride[d], -inv_h2);
          else
            ++boundary_faces;
        }
        const std::size_t diag_at = a.values.size();
        push(m, 0.0);
        for (int d = 0; d < 3; ++d) {
          if (c[d] + 1 < n[d])
            push(m + stride[d], -inv_h2);
          else
            ++boundary_faces;
        }
        a.values[diag_at] = complex(6.0 * inv_h2 - k * k, -k * boundary_faces / h);
        a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
      }
  return a;
}

// A right-hand side for helmholtz_box: smooth, complex, no entry zero.
inline std::vector<complex> helmholtz_rhs(std::size_t n) {
  std::vector<complex> b(n);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = complex(1.0 + 0.1 * double(i % 7), 0.05 * double(i % 3));
  return b;
}

// The Laplacian part of helmholtz_box (k = 0, Dirichlet) as a Stencil7 scaled by h^2:
// c0 = 6 + shift, c1..c6 = 1 - symmetric positive definite for shift >= 0.
template <class T>
Stencil7<T> laplacian_stencil(std::size_t n1, std::size_t n2, std::size_t n3, T shift) {
  Stencil7<T> s(n1, n2, n3);
  for (std::size_t m = 0; m < s.size(); ++m) {
    s.c[0][m] = T(6.0) + shift;
    for (int d = 1; d < 7; ++d) s.c[d][m] = T(1.0);
  }
  return s;
}

// -lap u + beta . grad u (upwind) on the unit cube, Dirichlet: real, nonsymmetric.
inline CsrMatrix<double> convection_diffusion(std::size_t n, double beta) {
  const double h = 1.0 / static_cast<double>(n + 1);
  CsrMatrix<double> a;
  a.rows = a.cols = n * n * n;
  a.row_ptr.push_back(0);
  for (std::size_t kz = 0; kz < n; ++kz)
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t m = i + n * (j + n * kz);
        const std::array<std::size_t, 3> c{i, j, kz};
        const std::array<std::size_t, 3> stride{1, n, n * n};
        auto push = [&](std::size_t col, double v) {
          a.col_idx.push_back(static_cast<std::int32_t>(col));
          a.values.push_back(v);
        };
        for (int d = 2; d >= 0; --d)
          if (c[d] > 0) push(m - stride[d], -1.0 - beta * h);
        push(m, 6.0 + 3.0 * beta * h);
        for (int d = 0; d < 3; ++d)
          if (c[d] + 1 < n) push(m + stride[d], -1.0);
        a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
      }
  return a;
}

// The three diagonals of a nonsymmetric tridiagonal matrix of n rows: a(i, i - 1) = lower[i]
// (lower[0] unused), a(i, i) = diagonal[i], a(i, i + 1) = upper[i] (upper[n - 1] unused).
template <class T>
struct Tridiagonal {
  std::vector<T> lower, diagonal, upper;
};

// Entries random of modulus at most sqrt 2 off the diagonal, and scale * (shift + such an
// entry) on it: no zero on the diagonal for shift > sqrt 2.
template <class T>
Tridiagonal<T> random_tridiagonal(std::size_t n, double shift, double scale = 1.0) {
  Tridiagonal<T> t{random_vector<T>(n, 12), random_vector<T>(n, 11), random_vector<T>(n, 13)};
  for (auto& d : t.diagonal) d = scale * (T(shift) + d);
  return t;
}

template <class T>
CsrMatrix<T> tridiagonal_csr(const Tridiagonal<T>& t) {
  const std::size_t n = t.diagonal.size();
  CsrMatrix<T> a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    auto push = [&](std::size_t j, T v) {
      a.col_idx.push_back(static_cast<std::int32_t>(j));
      a.values.push_back(v);
    };
    if (i > 0) push(i - 1, t.lower[i]);
    push(i, t.diagonal[i]);
    if (i + 1 < n) push(i + 1, t.upper[i]);
    a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
  }
  return a;
}

}  // namespace solvent::test
