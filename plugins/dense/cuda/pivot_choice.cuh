#pragma once
// Device pieces of the pivot choice that the elimination kernels and the blocked LU's panel
// kernel share, so that both pick the same row on a tie and report a failure the same way.
#include "cuda/gepp_kernels.cuh"

namespace solvent::dense {

// (value, row) pairs: the larger value wins, the lower row on a tie, as in the sequential
// search (the first maximum).
__device__ inline bool beats(double other, int other_row, double best, int row) {
  return other > best || (other == best && other_row < row);
}

__device__ inline void keep_better(double& best, int& row, double other, int other_row) {
  if (beats(other, other_row, best, row)) {
    best = other;
    row = other_row;
  }
}

// The same with a payload that follows the winning pair (where the row lies, for the
// blocked LU's panel kernel, which does not move rows while it factors).
__device__ inline void keep_better(double& best, int& row, int& payload, double other,
                                   int other_row, int other_payload) {
  if (beats(other, other_row, best, row)) {
    best = other;
    row = other_row;
    payload = other_payload;
  }
}

// The warp's best pair ends in lane 0; every lane of the warp must call it.
__device__ inline void warp_keep_better(double& best, int& row) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const double other = __shfl_down_sync(0xffffffffu, best, offset);
    const int other_row = __shfl_down_sync(0xffffffffu, row, offset);
    keep_better(best, row, other, other_row);
  }
}

// The warp's best pair, in every lane, by three warp reductions (redux.sync) instead of five
// rounds of shuffles: the shuffles of a block's 32 warps are a step's largest cost in the
// blocked LU's panel kernel, which issues them on one SM. A magnitude is at least 0 (or
// +inf), so its bit pattern orders as the value does; an empty lane (best < 0, row INT_MAX)
// enters as 0 and loses to any row on the tie. The best is -1 where no lane has a row.
struct WarpBest {
  double best;
  int row;
};

__device__ inline WarpBest warp_best_pair(double best, int row) {
  const auto bits = static_cast<unsigned long long>(__double_as_longlong(best < 0.0 ? 0.0 : best));
  const auto high = static_cast<unsigned>(bits >> 32);
  const auto low = static_cast<unsigned>(bits);
  const unsigned top_high = __reduce_max_sync(0xffffffffu, high);
  const unsigned top_low = __reduce_max_sync(0xffffffffu, high == top_high ? low : 0u);
  const bool top = high == top_high && low == top_low;
  const int top_row = __reduce_min_sync(0xffffffffu, top ? row : INT_MAX);
  if (top_row == INT_MAX) return {-1.0, INT_MAX};
  return {__longlong_as_double(static_cast<long long>(
              (static_cast<unsigned long long>(top_high) << 32) | top_low)),
          top_row};
}

// Keeps the first failure only: steps run in order, so it is the lowest step.
__device__ inline void record_failure(PivotFailure* failure, int k, double pivot) {
  if (atomicCAS(&failure->step, -1, k) == -1) failure->value = pivot;
}

}  // namespace solvent::dense
