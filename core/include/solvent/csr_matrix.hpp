#pragma once
// Compressed sparse row matrix with 32-bit indices (the layout cuSPARSE and the Krylov
// kernels consume directly; 2^31 non-zeros is far beyond the problems of the seeds).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace solvent {

template <class T>
struct CsrMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<std::int32_t> row_ptr;  // rows + 1 entries
  std::vector<std::int32_t> col_idx;  // sorted within each row
  std::vector<T> values;

  std::size_t nnz() const { return values.size(); }
};

}  // namespace solvent
