#pragma once
// The IMEX system matrix S = I - dt/2 Lin as imex-trapezoid builds it, and the relative
// difference of two solutions: shared by dense-solver-bench and the gepp-cuda GPU tests.
#include <solvent/csr_matrix.hpp>
#include <solvent/dense_matrix.hpp>

#include <cmath>
#include <vector>

namespace solvent::test {

inline solvent::DenseMatrix<double> implicit_matrix(const solvent::CsrMatrix<double>& lin,
                                                    double dt) {
  solvent::DenseMatrix<double> s(lin.rows, lin.cols);
  for (std::size_t i = 0; i < lin.rows; ++i) {
    s(i, i) = 1.0;
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k)
      s(i, std::size_t(lin.col_idx[k])) -= 0.5 * dt * lin.values[k];
  }
  return s;
}

// ||x - ref||_2 / ||ref||_2
inline double relative_difference(const std::vector<double>& x, const std::vector<double>& ref) {
  double d = 0.0, r = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d += (x[i] - ref[i]) * (x[i] - ref[i]);
    r += ref[i] * ref[i];
  }
  return std::sqrt(d / r);
}

}  // namespace solvent::test
