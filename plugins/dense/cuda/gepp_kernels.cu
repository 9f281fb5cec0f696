#include "cuda/atomic_max.cuh"
#include "cuda/gepp_kernels.cuh"
#include "cuda/pivot_choice.cuh"

#include <solvent/device/cuda.hpp>
#include <solvent_dense/gepp_arithmetic.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>

namespace solvent::dense {
namespace {

constexpr const char* kPlugin = "gepp-cuda";
constexpr int kAtomicPivotThreads = 256;
constexpr int kSwapThreads = 256;
constexpr int kFusedPivotThreads = 1024;
constexpr int kPaperTile = 16;    // De Luca et al.'s square 2D thread blocks
constexpr int kActiveTileX = 32;  // a warp along a row: coalesced pivot-row reads and writes
constexpr int kActiveTileY = 8;
constexpr int kSubstituteThreads = 1024;
constexpr int kWarp = 32;

__device__ inline std::size_t at(int i, int ld, int j) {
  return static_cast<std::size_t>(i) * static_cast<std::size_t>(ld) + static_cast<std::size_t>(j);
}

__global__ void reset_failure_kernel(PivotFailure* failure, unsigned int* finished) {
  failure->step = -1;
  failure->value = 0.0;
  *finished = 0u;
}

__global__ void copy_rhs_kernel(double* a, int ld, int n, const double* b) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[at(i, ld, n)] = b[i];
}

// One block. Each thread keeps the first maximum of its rows, then the block agrees on
// the maximum with the CAS atomic max in shared memory; among the threads holding it
// the lowest row wins (atomicMin), so ties resolve as in the sequential search.
__global__ void pivot_search_atomic_kernel(const double* a, int ld, int k, int row_end, int* pivots,
                                           PivotFailure* failure) {
  __shared__ double block_max;
  __shared__ int block_row;
  if (threadIdx.x == 0) {
    block_max = 0.0;
    block_row = INT_MAX;
  }
  __syncthreads();
  double best = -1.0;
  int best_row = INT_MAX;
  for (int i = k + static_cast<int>(threadIdx.x); i <= row_end; i += blockDim.x) {
    const double m = pivot_magnitude(a[at(i, ld, k)]);
    if (m > best) {
      best = m;
      best_row = i;
    }
  }
  atomic_max(&block_max, best);
  __syncthreads();
  if (best_row != INT_MAX && best == block_max) atomicMin(&block_row, best_row);
  __syncthreads();
  if (threadIdx.x == 0) {
    pivots[k] = block_row;
    const double pivot = a[at(block_row, ld, k)];
    if (!usable_pivot(pivot)) record_failure(failure, k, pivot);
  }
}

// Swaps rows k and p: matrix columns [0, col_end] (the stored multipliers too, so that
// P A = L U) and, with rhs, column n. Reads go through L2 (__ldcg), so rows written by
// other blocks of the same launch are seen.
__device__ inline void swap_rows(double* a, int ld, int n, int k, int p, int col_end, bool rhs,
                                 int first, int stride) {
  const int count = col_end + 1 + (rhs ? 1 : 0);
  for (int t = first; t < count; t += stride) {
    const int j = t <= col_end ? t : n;
    const double v = __ldcg(a + at(k, ld, j));
    a[at(k, ld, j)] = __ldcg(a + at(p, ld, j));
    a[at(p, ld, j)] = v;
  }
}

__global__ void row_swap_kernel(double* a, int ld, int n, int k, int col_end, bool rhs,
                                const int* pivots) {
  const int p = pivots[k];
  if (p == k) return;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int count = col_end + 1 + (rhs ? 1 : 0);
  if (t < count) swap_rows(a, ld, n, k, p, col_end, rhs, t, count);
}

// Pivot search (warp-shuffle reduction) and row swap for step s, by one whole block of
// `threads` threads (a multiple of 32) with linear index tid. Column k and the two rows are
// read through L2 (__ldcg): in the fused kernel other blocks of the same launch wrote them.
__device__ void pivot_and_swap_block(double* a, int ld, int n, const EliminationStep& s,
                                     int* pivots, PivotFailure* failure, int tid, int threads) {
  __shared__ double warp_best[kFusedPivotThreads / kWarp];
  __shared__ int warp_row[kFusedPivotThreads / kWarp];
  __shared__ int pivot_row;
  const int k = s.k;
  double best = -1.0;
  int row = INT_MAX;
  for (int i = k + tid; i <= s.row_end; i += threads) {
    keep_better(best, row, pivot_magnitude(__ldcg(a + at(i, ld, k))), i);
  }
  warp_keep_better(best, row);
  const int warp = tid / kWarp;
  const int lane = tid % kWarp;
  if (lane == 0) {
    warp_best[warp] = best;
    warp_row[warp] = row;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = threads / kWarp;
    best = lane < warps ? warp_best[lane] : -1.0;
    row = lane < warps ? warp_row[lane] : INT_MAX;
    warp_keep_better(best, row);
    if (lane == 0) {
      pivot_row = row;
      pivots[k] = row;
      const double pivot = __ldcg(a + at(row, ld, k));
      if (!usable_pivot(pivot)) record_failure(failure, k, pivot);
    }
  }
  __syncthreads();
  if (pivot_row != k) swap_rows(a, ld, n, k, pivot_row, s.col_end, s.rhs, tid, threads);
}

__global__ void pivot_and_swap_kernel(double* a, int ld, int n, EliminationStep s, int* pivots,
                                      PivotFailure* failure) {
  pivot_and_swap_block(a, ld, n, s, pivots, failure, threadIdx.x, blockDim.x);
}

// Step s's elimination over the active submatrix; then the block that finishes last (an
// atomic ticket after a fence, the pattern of the CUDA programming guide's fence example)
// does the pivot search and row swap of step `next`: one launch per elimination step.
__global__ void eliminate_and_pivot_kernel(double* a, int ld, int n, EliminationStep s,
                                           EliminationStep next, int* pivots, PivotFailure* failure,
                                           unsigned int* finished) {
  const int rows = s.row_end - s.k;
  const int main_cols = s.col_end - s.k;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < main_cols + (s.rhs ? 1 : 0)) {
    const int i = s.k + 1 + r;
    const int j = c < main_cols ? s.k + 1 + c : n;
    const double l = multiplier(a[at(i, ld, s.k)], a[at(s.k, ld, s.k)]);
    a[at(i, ld, j)] = eliminate(a[at(i, ld, j)], l, a[at(s.k, ld, j)]);
  }
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y;
    last = atomicAdd(finished, 1u) == blocks - 1;
  }
  __syncthreads();
  if (!last) return;
  if (tid == 0) *finished = 0u;
  pivot_and_swap_block(a, ld, n, next, pivots, failure, tid, blockDim.x * blockDim.y);
}

// First and last nonzero column of each row of the n x n row-major matrix a (one block
// per row); n and -1 for a zero row. NaN counts as nonzero.
__global__ void row_extents_kernel(const double* a, int n, int* first, int* last) {
  __shared__ int lo;
  __shared__ int hi;
  if (threadIdx.x == 0) {
    lo = n;
    hi = -1;
  }
  __syncthreads();
  const double* row = a + static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(n);
  int my_lo = n;
  int my_hi = -1;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    if (row[j] != 0.0) {
      my_lo = min(my_lo, j);
      my_hi = max(my_hi, j);
    }
  }
  atomicMin(&lo, my_lo);
  atomicMax(&hi, my_hi);
  __syncthreads();
  if (threadIdx.x == 0) {
    first[blockIdx.x] = lo;
    last[blockIdx.x] = hi;
  }
}

// Steps first..last whose column is zero below the diagonal (pivot = diagonal, nothing to
// eliminate) in one block: record the pivots, report the first unusable diagonal.
__global__ void diagonal_pivots_kernel(const double* a, int ld, int first, int last, int* pivots,
                                       PivotFailure* failure) {
  __shared__ int first_bad;
  if (threadIdx.x == 0) first_bad = INT_MAX;
  __syncthreads();
  for (int m = first + static_cast<int>(threadIdx.x); m <= last; m += blockDim.x) {
    pivots[m] = m;
    if (!usable_pivot(a[at(m, ld, m)])) atomicMin(&first_bad, m);
  }
  __syncthreads();
  if (threadIdx.x == 0 && first_bad != INT_MAX) {
    record_failure(failure, first_bad, a[at(first_bad, ld, first_bad)]);
  }
}

// a_ij -= (a_ik / a_kk) a_kj for rows row0 + y and columns col0 + x (x < main_cols) or n.
// Column k is left as it is: below the diagonal it keeps the unscaled multipliers.
__global__ void eliminate_kernel(double* a, int ld, int n, int k, int row0, int rows, int col0,
                                 int main_cols, bool rhs) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= rows || c >= main_cols + (rhs ? 1 : 0)) return;
  const int i = row0 + r;
  const int j = c < main_cols ? col0 + c : n;
  if (i <= k || j <= k) return;
  const double l = multiplier(a[at(i, ld, k)], a[at(k, ld, k)]);
  a[at(i, ld, j)] = eliminate(a[at(i, ld, j)], l, a[at(k, ld, j)]);
}

// Substitution in one block. Rows go in tiles of 32: all warps first take the finished
// part of each tile row's dot product (one warp per row, coalesced along the row), then
// warp 0 solves the 32 x 32 triangle on the diagonal with shuffles.
constexpr int kTile = 32;

struct SubstitutionShared {
  double* y;     // the vector being solved for
  double* w;     // forward: y_k / u_kk of finished rows; backward: x
  double* tile;  // the diagonal block, kTile x (kTile + 1)
};

__device__ inline double warp_sum(double v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__device__ inline void load_tile(const Substitution& s, int r0, int count, double* tile) {
  for (int t = threadIdx.x; t < kTile * kTile; t += blockDim.x) {
    const int r = t / kTile;
    const int c = t % kTile;
    tile[r * (kTile + 1) + c] = (r < count && c < count) ? s.lu[at(r0 + r, s.ld, r0 + c)] : 0.0;
  }
}

// One tile of rows [r0, r0 + count) of the forward (Lower: unit L with L_ik = lu_ik / lu_kk,
// reading w = y / diag of finished rows) or backward (U, reading x = w of finished rows)
// substitution. On return w holds the tile's y / diag (Lower) or x.
template <bool Lower>
__device__ void solve_tile(const Substitution& s, SubstitutionShared sh, int r0, int count) {
  const int warp = threadIdx.x / kWarp;
  const int lane = threadIdx.x % kWarp;
  const int warps = blockDim.x / kWarp;
  const int r1 = r0 + count;
  load_tile(s, r0, count, sh.tile);
  for (int r = warp; r < count; r += warps) {
    const int i = r0 + r;
    const int begin = Lower ? s.lower_begin[i] : r1;
    const int end = Lower ? r0 : s.upper_end[i] + 1;
    double acc = 0.0;
    for (int j = begin + lane; j < end; j += kWarp) acc += s.lu[at(i, s.ld, j)] * sh.w[j];
    acc = warp_sum(acc);
    if (lane == 0) sh.y[i] -= acc;
  }
  __syncthreads();
  if (warp == 0) {
    const bool mine = lane < count;
    double yl = mine ? sh.y[r0 + lane] : 0.0;
    const double inverse = mine ? 1.0 / sh.tile[lane * (kTile + 1) + lane] : 0.0;
#pragma unroll
    for (int step = 0; step < kTile; ++step) {
      const int c = Lower ? step : kTile - 1 - step;
      const double known = __shfl_sync(0xffffffffu, yl * inverse, c);
      if (Lower ? lane > c : lane < c) yl = eliminate(yl, sh.tile[lane * (kTile + 1) + c], known);
    }
    if (mine) {
      if (Lower) sh.y[r0 + lane] = yl;
      sh.w[r0 + lane] = yl * inverse;
    }
  }
  __syncthreads();
}

__global__ void substitute_kernel(Substitution s, const double* b, double* x) {
  extern __shared__ double shared[];
  SubstitutionShared sh{shared, shared + s.n, shared + 2 * s.n};
  for (int i = threadIdx.x; i < s.n; i += blockDim.x) {
    sh.y[i] = s.factored ? b[s.permutation[i]] : s.lu[at(i, s.ld, s.n)];
  }
  __syncthreads();
  if (s.factored) {
    for (int r0 = 0; r0 < s.n; r0 += kTile) solve_tile<true>(s, sh, r0, min(kTile, s.n - r0));
  }
  for (int r0 = (s.n - 1) / kTile * kTile; r0 >= 0; r0 -= kTile) {
    solve_tile<false>(s, sh, r0, min(kTile, s.n - r0));
  }
  for (int i = threadIdx.x; i < s.n; i += blockDim.x) x[i] = sh.w[i];
}

std::size_t substitution_shared_bytes(int n) {
  return sizeof(double) * (2 * static_cast<std::size_t>(n) + kTile * (kTile + 1));
}

int blocks_for(int count, int per_block) { return (count + per_block - 1) / per_block; }

}  // namespace

void launch_reset_failure(PivotFailure* failure, unsigned int* finished, cudaStream_t stream) {
  reset_failure_kernel<<<1, 1, 0, stream>>>(failure, finished);
  cuda::check_launch(kPlugin, "reset_failure_kernel");
}

void launch_copy_rhs_into_matrix(double* a, int ld, int n, const double* b, cudaStream_t stream) {
  copy_rhs_kernel<<<blocks_for(n, 256), 256, 0, stream>>>(a, ld, n, b);
  cuda::check_launch(kPlugin, "copy_rhs_kernel");
}

void launch_pivot_search_atomic(const double* a, int ld, const EliminationStep& s, int* pivots,
                                PivotFailure* failure, cudaStream_t stream) {
  pivot_search_atomic_kernel<<<1, kAtomicPivotThreads, 0, stream>>>(a, ld, s.k, s.row_end, pivots,
                                                                    failure);
  cuda::check_launch(kPlugin, "pivot_search_atomic_kernel");
}

void launch_row_swap(double* a, int ld, int n, const EliminationStep& s, const int* pivots,
                     cudaStream_t stream) {
  const int count = s.col_end + 1 + (s.rhs ? 1 : 0);
  row_swap_kernel<<<blocks_for(count, kSwapThreads), kSwapThreads, 0, stream>>>(
      a, ld, n, s.k, s.col_end, s.rhs, pivots);
  cuda::check_launch(kPlugin, "row_swap_kernel");
}

void launch_pivot_and_swap(double* a, int ld, int n, const EliminationStep& s, int* pivots,
                           PivotFailure* failure, cudaStream_t stream) {
  pivot_and_swap_kernel<<<1, kFusedPivotThreads, 0, stream>>>(a, ld, n, s, pivots, failure);
  cuda::check_launch(kPlugin, "pivot_and_swap_kernel");
}

void launch_eliminate_and_pivot(double* a, int ld, int n, const EliminationStep& s,
                                const EliminationStep& next, int* pivots, PivotFailure* failure,
                                unsigned int* finished, cudaStream_t stream) {
  const int rows = s.row_end - s.k;
  const int cols = s.col_end - s.k + (s.rhs ? 1 : 0);
  const dim3 block(kActiveTileX, kActiveTileY);
  const dim3 grid(std::max(1, blocks_for(cols, kActiveTileX)),
                  std::max(1, blocks_for(rows, kActiveTileY)));
  eliminate_and_pivot_kernel<<<grid, block, 0, stream>>>(a, ld, n, s, next, pivots, failure,
                                                         finished);
  cuda::check_launch(kPlugin, "eliminate_and_pivot_kernel");
}

void launch_row_extents(const double* a, int n, int* first, int* last, cudaStream_t stream) {
  row_extents_kernel<<<n, 256, 0, stream>>>(a, n, first, last);
  cuda::check_launch(kPlugin, "row_extents_kernel");
}

void launch_diagonal_pivots(const double* a, int ld, int first, int last, int* pivots,
                            PivotFailure* failure, cudaStream_t stream) {
  diagonal_pivots_kernel<<<1, kFusedPivotThreads, 0, stream>>>(a, ld, first, last, pivots, failure);
  cuda::check_launch(kPlugin, "diagonal_pivots_kernel");
}

void launch_eliminate(double* a, int ld, int n, const EliminationStep& s, bool whole_grid,
                      cudaStream_t stream) {
  const int rhs_cols = s.rhs ? 1 : 0;
  if (whole_grid) {
    const dim3 block(kPaperTile, kPaperTile);
    const dim3 grid(blocks_for(n + rhs_cols, kPaperTile), blocks_for(n, kPaperTile));
    eliminate_kernel<<<grid, block, 0, stream>>>(a, ld, n, s.k, 0, n, 0, n, s.rhs);
  } else {
    const int rows = s.row_end - s.k;
    const int main_cols = s.col_end - s.k;
    if (rows <= 0 || main_cols + rhs_cols <= 0) return;
    const dim3 block(kActiveTileX, kActiveTileY);
    const dim3 grid(blocks_for(main_cols + rhs_cols, kActiveTileX), blocks_for(rows, kActiveTileY));
    eliminate_kernel<<<grid, block, 0, stream>>>(a, ld, n, s.k, s.k + 1, rows, s.k + 1, main_cols,
                                                 s.rhs);
  }
  cuda::check_launch(kPlugin, "eliminate_kernel");
}

bool prepare_substitution(int n) {
  int device = 0;
  cuda::check(cudaGetDevice(&device), kPlugin, "cudaGetDevice");
  int limit = 0;
  cuda::check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              kPlugin, "cudaDeviceGetAttribute");
  const std::size_t bytes = substitution_shared_bytes(n);
  if (bytes > static_cast<std::size_t>(limit)) return false;
  cuda::check(cudaFuncSetAttribute(substitute_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)),
              kPlugin, "cudaFuncSetAttribute(substitute_kernel)");
  return true;
}

void launch_substitute(const Substitution& s, const double* b, double* x, cudaStream_t stream) {
  substitute_kernel<<<1, kSubstituteThreads, substitution_shared_bytes(s.n), stream>>>(s, b, x);
  cuda::check_launch(kPlugin, "substitute_kernel");
}

}  // namespace solvent::dense
