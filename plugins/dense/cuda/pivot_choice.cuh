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

__device__ inline void warp_keep_better(double& best, int& row, int& payload) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const double other = __shfl_down_sync(0xffffffffu, best, offset);
    const int other_row = __shfl_down_sync(0xffffffffu, row, offset);
    const int other_payload = __shfl_down_sync(0xffffffffu, payload, offset);
    keep_better(best, row, payload, other, other_row, other_payload);
  }
}

// Keeps the first failure only: steps run in order, so it is the lowest step.
__device__ inline void record_failure(PivotFailure* failure, int k, double pivot) {
  if (atomicCAS(&failure->step, -1, k) == -1) failure->value = pivot;
}

}  // namespace solvent::dense
