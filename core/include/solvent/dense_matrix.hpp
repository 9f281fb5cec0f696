#pragma once
// Row-major dense matrix: the storage the dense GEPP solvers (CPU and CUDA) work on.
#include <cassert>
#include <cstddef>
#include <vector>

namespace solvent {

template <class T>
struct DenseMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<T> values;  // row-major, rows * cols

  DenseMatrix() = default;
  DenseMatrix(std::size_t r, std::size_t c) : rows(r), cols(c), values(r * c, T{}) {}

  T& operator()(std::size_t i, std::size_t j) { return values[i * cols + j]; }
  const T& operator()(std::size_t i, std::size_t j) const { return values[i * cols + j]; }
};

}  // namespace solvent
