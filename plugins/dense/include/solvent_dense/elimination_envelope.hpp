#pragma once
// Where Gaussian elimination with partial pivoting can meet nonzeros, found from the
// matrix's own zero pattern (De Luca 2025's "skip the zero blocks", for any matrix).
//
// With row_end[k] = max(k, largest row whose first nonzero column is <= k), rows below
// row_end[k] still hold their original, zero, column k at step k: no pivot can come
// from them and no update touches them. With col_end[k] = max(k, last nonzero column of
// any row <= row_end[k]), the pivot row of step k is zero right of col_end[k]. Both are
// non-decreasing, and the bounds hold whatever pivots are chosen.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace solvent::dense {

struct EliminationEnvelope {
  std::vector<std::int32_t> row_end;  // last row step k reads or updates
  std::vector<std::int32_t> col_end;  // last matrix column step k updates

  static EliminationEnvelope dense(std::size_t n);
  static EliminationEnvelope of_matrix(const double* a, std::size_t n);  // row-major n x n
  // From each row's first and last nonzero column (n and -1 for a zero row).
  static EliminationEnvelope of_row_extents(const std::vector<std::int32_t>& first,
                                            const std::vector<std::int32_t>& last);

  // Multiply-adds of the elimination inside the envelope (matrix part only).
  double update_count() const;
};

// Per-row nonzero extent of the factors, for substitution: L row i lives in columns
// [lower_begin[i], i), U row i in [i, upper_end[i]]. Needs the pivots actually chosen,
// because a row swap carries a row's multipliers to its new position.
struct FactorProfile {
  std::vector<std::int32_t> lower_begin;
  std::vector<std::int32_t> upper_end;

  static FactorProfile of(const EliminationEnvelope& env, const std::vector<std::int32_t>& pivots);
};

}  // namespace solvent::dense
