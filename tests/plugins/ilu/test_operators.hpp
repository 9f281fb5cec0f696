#pragma once
// The CSR operators the ILU(0) tests of this folder use, real and complex.
#include <solvent/operator.hpp>

#include <solvent_test/reference_kernels.hpp>
#include <solvent_test/test_matrices.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

namespace ilu_test {

using solvent::complex;
using solvent::test::random_vector;

template <class T>
std::shared_ptr<const solvent::Operator> op(solvent::CsrMatrix<T> a) {
  return std::make_shared<const solvent::Operator>(std::move(a));
}

// A nonsymmetric tridiagonal matrix, diagonal 4 + (a random entry of modulus at most sqrt 2),
// off-diagonals of modulus at most sqrt 2. ILU(0) has no fill to drop on it: L U = A.
template <class T>
solvent::CsrMatrix<T> tridiagonal(std::size_t n) {
  return solvent::test::tridiagonal_csr(solvent::test::random_tridiagonal<T>(n, 4.0));
}

// Five-point finite differences on an nx x ny grid (scaled by h^2), Dirichlet: real, with an
// upwinded convection term so that it is nonsymmetric; complex, a Helmholtz operator
// -lap u - k^2 h^2 u with an absorbing imaginary shift. ILU(0) drops fill on it.
template <class T>
solvent::CsrMatrix<T> laplacian_2d(std::size_t nx, std::size_t ny) {
  T diagonal, west, east, south, north;
  if constexpr (std::is_same_v<T, complex>) {
    diagonal = complex(4.0 - 0.3, 0.5), west = east = south = north = -1.0;
  } else {
    diagonal = 4.4, west = -1.4, east = -1.0, south = -1.2, north = -0.8;
  }
  solvent::CsrMatrix<T> a;
  a.rows = a.cols = nx * ny;
  a.row_ptr.push_back(0);
  for (std::size_t j = 0; j < ny; ++j)
    for (std::size_t i = 0; i < nx; ++i) {
      const std::size_t m = i + nx * j;
      auto push = [&](std::size_t col, T v) {
        a.col_idx.push_back(static_cast<std::int32_t>(col));
        a.values.push_back(v);
      };
      if (j > 0) push(m - nx, south);
      if (i > 0) push(m - 1, west);
      push(m, diagonal);
      if (i + 1 < nx) push(m + 1, east);
      if (j + 1 < ny) push(m + nx, north);
      a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
    }
  return a;
}

// The same pattern with other values: every entry times a factor in [1, 2], the diagonal
// kept dominant.
template <class T>
solvent::CsrMatrix<T> rescaled(solvent::CsrMatrix<T> a) {
  for (std::size_t k = 0; k < a.values.size(); ++k)
    a.values[k] *= 1.0 + static_cast<double>(k % 7) / 6.0;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::int32_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (static_cast<std::size_t>(a.col_idx[k]) == i) a.values[k] *= 3.0;
  return a;
}

}  // namespace ilu_test
