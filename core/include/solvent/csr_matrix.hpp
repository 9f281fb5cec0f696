#pragma once
// Compressed sparse row matrix with 32-bit indices (the layout cuSPARSE and the Krylov
// kernels consume directly; 2^31 non-zeros is far beyond the problems of the seeds).
// Its arrays are owned, or borrowed from the caller that made it (solvent/matrix_array.hpp:
// the Python binding reads a SciPy matrix's arrays in place).
//
// Distributed over ranks, each rank holds its own rows (`distribution`, see
// solvent/sparse/row_distribution.hpp): rows is the rank's row count, columns 0..rows-1 are
// its own unknowns (local row i's unknown is column i) and columns rows..cols-1 its ghosts,
// other ranks' unknowns; a product first brings the ghosts' values (GhostExchange).
// solvent::apply and the core's residuals do both.
#include <solvent/matrix_array.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace solvent {

template <class T>
struct CsrMatrix {
  std::size_t rows = 0;
  std::size_t cols = 0;
  MatrixArray<std::int32_t> row_ptr;  // rows + 1 entries
  MatrixArray<std::int32_t> col_idx;  // sorted within each row
  MatrixArray<T> values;
  // The rank's rows of a matrix distributed over several ranks; null when this rank holds
  // the whole matrix.
  std::shared_ptr<const RowDistribution> distribution;

  std::size_t nnz() const { return values.size(); }
  // Whether the matrix goes over more than one rank.
  bool distributed() const { return distribution && distribution->comm->size() > 1; }
  // Square as a linear system's matrix: rows == cols on one rank; over ranks the rank's rows
  // and its own unknowns always match, and its ghost columns lie beyond them.
  bool square() const { return distributed() || rows == cols; }
};

}  // namespace solvent
