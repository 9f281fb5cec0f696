#include "cuda/blocked_lu.hpp"

#include "cuda/device_support.cuh"
#include "cuda/pinned_upload.cuh"
#include "cuda/pivot_choice.cuh"

#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>
#include <solvent_dense/gepp_arithmetic.hpp>

#include <cublas_v2.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace solvent::dense {
namespace {

constexpr int kPanelThreads = 1024;  // the most panel_threads may ask for
// The widest sub-panel one kernel factors. A step's work grows with the width on the one SM
// that runs it while the launches per panel shrink; near 32 columns the first overtakes the
// second at the orders this mode is for (a few thousand).
constexpr int kMaxPanelWidth = 32;
// When not one column of a sub-panel fits in shared memory (orders beyond about 28 000 on
// an H100) it is factored where it lies, through L2, this many columns at a time.
constexpr int kUnstagedPanelWidth = 8;
// A panel's row swaps become at most two moves per step (see compose_swaps); block_size is
// capped (schema) so that a panel's moves fit one apply_moves_kernel block's shared memory.
constexpr int kMaxMoves = 2 * kMaxBlockSize;
constexpr int kMoveLanes = 128;  // threads along a column's moves
constexpr int kMoveColumns = 8;  // columns per block
// A row's entries the panel kernel loads at once (8 spills at 64 registers a thread).
constexpr int kUpdateChunk = 4;

void check(cudaError_t status, const char* what) { cuda::check(status, kGeppCuda, what); }

// cuBLAS reports through its own status type, outside cuda::check's reach.
void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw SolverError(std::string(kGeppCuda) + ": " + what + ": " + cublasGetStatusString(status));
  }
}

// Column-major with leading dimension ld, as cuBLAS stores matrices.
__host__ __device__ inline std::size_t entry(int row, int col, int ld) {
  return static_cast<std::size_t>(col) * static_cast<std::size_t>(ld) +
         static_cast<std::size_t>(row);
}

// The row swaps of steps first..last-1 (row i with pivots[i], in order, as LAPACK's laswp)
// composed into moves: after the swaps, row[t] holds what row from[t] held before. Applied
// one swap after another, a column's swaps are a chain of dependent memory accesses (a
// panel of 64 steps, some 40 us); as moves, every read precedes every write, in parallel.
struct SwapMoves {
  int count;
  int row[kMaxMoves];
  int from[kMaxMoves];
};

// One whole warp. Rows first..last-1 are slots 0..w-1; a pivot row at or beyond `last`
// takes the next slot the first time it appears (pivots[i] >= i, so no other row moves).
// row and from: 2 (last - first) ints of shared memory; returns the slots used.
__device__ int compose_swaps(const int* pivots, int first, int last, int* row, int* from) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int w = last - first;
  for (int t = lane; t < w; t += 32) row[t] = from[t] = first + t;
  int count = w;  // the same in every lane
  __syncwarp();
  for (int i = first; i < last; ++i) {
    const int p = pivots[i];
    if (p == i) continue;
    int b = p - first;
    if (p >= last) {
      b = -1;
      for (int base = w; base < count && b < 0; base += 32) {
        const unsigned hit =
            __ballot_sync(0xffffffffu, base + lane < count && row[base + lane] == p);
        if (hit != 0u) b = base + __ffs(static_cast<int>(hit)) - 1;
      }
      if (b < 0) {
        b = count++;
        if (lane == 0) row[b] = from[b] = p;
      }
    }
    if (lane == 0) {
      const int held = from[i - first];
      from[i - first] = from[b];
      from[b] = held;
    }
    __syncwarp();
  }
  return count;
}

// One whole warp: the composed moves into global memory for apply_moves_kernel.
__device__ void store_moves(int count, const int* row, const int* from, SwapMoves* out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  for (int t = lane; t < count; t += 32) {
    out->row[t] = row[t];
    out->from[t] = from[t];
  }
  if (lane == 0) out->count = count;
}

// The moves in every column of [c0, c1) outside [skip0, skip1) (the steps' own columns,
// swapped by their panel kernel): a row of kMoveLanes threads per column reads all the
// column's sources, the block waits, then writes them to their rows.
__global__ void __launch_bounds__(kMoveLanes* kMoveColumns)
    apply_moves_kernel(double* a, int lda, int c0, int c1, int skip0, int skip1,
                       const SwapMoves* moves) {
  __shared__ double moving[kMoveColumns][kMaxMoves];
  const int count = moves->count;
  const int c = c0 + static_cast<int>(blockIdx.x) * kMoveColumns + static_cast<int>(threadIdx.y);
  const bool mine = c < c1 && (c < skip0 || c >= skip1);
  const int lane = static_cast<int>(threadIdx.x);
  if (mine) {
    const double* const column = a + entry(0, c, lda);
    for (int t = lane; t < count; t += kMoveLanes) moving[threadIdx.y][t] = column[moves->from[t]];
  }
  __syncthreads();
  if (mine) {
    double* const column = a + entry(0, c, lda);
    for (int t = lane; t < count; t += kMoveLanes) column[moves->row[t]] = moving[threadIdx.y][t];
  }
}

// Factors the sub-panel of `width` columns whose top-left entry is the diagonal entry
// (j0, j0) of the n x n matrix a (rows j0..n-1), in one block. Step j: pivot search down
// column j (each warp's best pair, then De Luca et al.'s atomic max across the warps and the
// lowest row holding the maximum), the multipliers l = a_rj / a_jj stored below the
// diagonal (as LAPACK's dgetf2 forms them: a_rj times 1 / a_jj where a_jj is a normal
// number), rank-1 update of the later columns.
// staged: the sub-panel is copied to shared memory (column-major, leading dimension rows)
// and written back at the end, so its steps touch no global memory; otherwise it is
// worked on in place.
// A step costs one block barrier. Rows are not swapped while the sub-panel is factored: a
// row stays where it lies (its "place"), owned by one thread throughout, and `logical`
// (shared after the staged panel, else `scratch`) holds the row it is in LAPACK's order,
// which the pivot search ranks ties by. The pivot's place is read by all and written by
// none during its step, so swapping first (a barrier of its own) is not needed; the
// search for column j + 1 runs in step j's update, its warps' candidates in a slot per
// warp and its maximum in one of three rotating words, one being reset while one is read
// and one is filled.
// Then, for the whole panel (columns [k0, end)): the sub-panel's swaps, composed into at
// most 2 width moves, in every column, its own included (which puts its rows in LAPACK's
// order), and U's rows j0..j0+width-1 right of it (U12 = L11^-1 A12); the last sub-panel
// of a panel also composes the whole panel's swaps into panel_moves. These are a few
// thousand entries: as launches of their own (a swap pass, a DTRSM, a composition) they
// cost more than the work, three launches per sub-panel being most of a factorisation's
// time at n = 3200 on the H100.
// A step's update is bound by the one SM's shared-memory pipe (measured with per-phase
// clocks on the H100: some 60% of a step at 1600 rows), so the kernel is compiled twice:
// staged, where the panel's address space (shared, not generic) and 32-bit offsets are
// known at compile time, and in place.
template <bool kStaged>
__global__ void __launch_bounds__(kPanelThreads, 1)
    factor_panel_kernel(double* a, int lda, int n, int j0, int width, int k0, int end, int* pivots,
                        int* scratch, PivotFailure* failure, SwapMoves* panel_moves) {
  using Offset = std::conditional_t<kStaged, int, std::size_t>;
  extern __shared__ double staged_panel[];
  constexpr int kWarps = kPanelThreads / 32;
  // A column's largest magnitude as the bit pattern of a double >= 0, which orders as the
  // value does: De Luca et al.'s atomic maximum then is the hardware's 64-bit one instead
  // of their compare-and-swap loop, which 32 warps contending for one word retry for about
  // a thousand cycles a step.
  __shared__ unsigned long long step_max[3];
  __shared__ double slot_best[2][kWarps];
  __shared__ int slot_row[2][kWarps];
  __shared__ int slot_place[2][kWarps];
  __shared__ int move_row[kMaxMoves];
  __shared__ int move_from[kMaxMoves];
  __shared__ int move_count;
  const int rows = n - j0;
  const int tid = static_cast<int>(threadIdx.x);
  const int threads = static_cast<int>(blockDim.x);
  const int lane = tid % 32;
  const int warps = threads / 32;
  double* const origin = a + entry(j0, j0, lda);
  double* const p = kStaged ? staged_panel : origin;
  const Offset ldp = kStaged ? rows : lda;
  const auto at = [ldp](int r, int c) {
    return static_cast<Offset>(c) * ldp + static_cast<Offset>(r);
  };
  int* const logical = kStaged ? reinterpret_cast<int*>(staged_panel + rows * width) : scratch;
  for (int r = tid; r < rows; r += threads) {
    logical[r] = r;
    // Unrolled so that a thread has several loads in flight: one at a time, the copy runs
    // at a few tens of GB/s.
    if (kStaged) {
#pragma unroll 8
      for (int c = 0; c < width; ++c) p[at(r, c)] = origin[entry(r, c, lda)];
    }
  }
  if (tid < 3) step_max[tid] = 0;
  // The warp's candidate for column `column`: its magnitude into the column's maximum, its
  // rows into the warp's slot (the place by the lane holding it). Every warp offers, so no
  // slot keeps an older column's pair.
  const auto offer = [&](int column, double best, int row, int place) {
    const WarpBest w = warp_best_pair(best, row);
    if (lane == 0) {
      if (w.row != INT_MAX)
        atomicMax(&step_max[column % 3],
                  static_cast<unsigned long long>(__double_as_longlong(w.best)));
      slot_best[column % 2][tid / 32] = w.best;
      slot_row[column % 2][tid / 32] = w.row;
    }
    if (row == w.row && row != INT_MAX) slot_place[column % 2][tid / 32] = place;
  };
  __syncthreads();
  {
    double best = -1.0;
    int row = INT_MAX;
    int place = -1;
    for (int r = tid; r < rows; r += threads)
      keep_better(best, row, place, pivot_magnitude(p[at(r, 0)]), r, r);
    offer(0, best, row, place);
  }
  __syncthreads();
  for (int j = 0; j < width; ++j) {
    // Last read at the start of step j - 1, next filled in step j + 1.
    if (tid == 0) step_max[(j + 2) % 3] = 0;
    // Every warp finds the pivot itself: the lowest row among the slots holding the maximum.
    const double top = __longlong_as_double(static_cast<long long>(step_max[j % 3]));
    const int offered =
        lane < warps && slot_best[j % 2][lane] == top ? slot_row[j % 2][lane] : INT_MAX;
    const int pivot_row = __reduce_min_sync(0xffffffffu, offered);
    const int from = __ffs(static_cast<int>(__ballot_sync(0xffffffffu, offered == pivot_row))) - 1;
    const int pivot_place = slot_place[j % 2][from];
    const double pivot = p[at(pivot_place, j)];
    if (tid == 0) {
      pivots[j0 + j] = j0 + pivot_row;
      if (!usable_pivot(pivot)) record_failure(failure, j0 + j, pivot);
    }
    // LAPACK's dgetf2: multiply by the pivot's reciprocal where it is a normal number (a
    // division per row is a few dozen instructions), divide where it is not.
    const bool reciprocal = fabs(pivot) >= DBL_MIN;
    const double inverse = 1.0 / pivot;
    const bool search = j + 1 < width;
    double best = -1.0;
    int row = INT_MAX;
    int place = -1;
    for (int r = tid; r < rows; r += threads) {
      int g = logical[r];
      if (g < j) continue;  // a row of U already
      if (r == pivot_place) {
        logical[r] = j;  // U's row j from now on
        continue;
      }
      if (g == j) {  // row j, which the swap sends to the pivot's row
        g = pivot_row;
        logical[r] = g;
      }
      const double v = p[at(r, j)];
      const double l = reciprocal ? v * inverse : multiplier(v, pivot);
      // The update in chunks whose loads all issue before their stores: entry by entry, each
      // load waits for the store before it (the pivot's row and this one are in one array),
      // a chain of some 80 cycles an entry that was most of a step's time.
      double next = 0.0;
      for (int c0 = j + 1; c0 < width; c0 += kUpdateChunk) {
        double own[kUpdateChunk];
        double top[kUpdateChunk];
#pragma unroll
        for (int k = 0; k < kUpdateChunk; ++k) {
          if (c0 + k < width) {
            own[k] = p[at(r, c0 + k)];
            top[k] = p[at(pivot_place, c0 + k)];
          }
        }
#pragma unroll
        for (int k = 0; k < kUpdateChunk; ++k) {
          if (c0 + k < width) {
            const double x = eliminate(own[k], l, top[k]);
            p[at(r, c0 + k)] = x;
            if (k == 0 && c0 == j + 1) next = x;
          }
        }
      }
      p[at(r, j)] = l;
      if (search) keep_better(best, row, place, pivot_magnitude(next), g, r);
    }
    if (search) offer(j + 1, best, row, place);
    __syncthreads();
  }
  if (kStaged) {
    for (int r = tid; r < rows; r += threads) {
#pragma unroll 8
      for (int c = 0; c < width; ++c) origin[entry(r, c, lda)] = p[at(r, c)];
    }
  }
  // The pivots thread 0 wrote are visible to the block after the last step's barrier; the
  // written-back sub-panel after the next.
  if (tid < 32) {
    const int count = compose_swaps(pivots, j0, j0 + width, move_row, move_from);
    if (tid == 0) move_count = count;
  }
  __syncthreads();
  // The moves in the panel's columns, whole columns at a time (count is at most 2 width <=
  // 64 and at most rows, so at most threads, panel_threads being at least 64): every read of
  // a round before every write.
  const int count = move_count;
  const int columns = end - k0;
  const int per_round = threads / count;
  for (int q0 = 0; q0 < columns; q0 += per_round) {
    const int q = q0 + tid / count;
    const bool moving = tid < per_round * count && q < columns;
    const int t = tid % count;
    double v = 0.0;
    if (moving) v = a[entry(move_from[t], k0 + q, lda)];
    __syncthreads();
    if (moving) a[entry(move_row[t], k0 + q, lda)] = v;
    __syncthreads();
  }
  // U12 = L11^-1 A12, a warp per column: lane i holds row j0 + i, and column k's value,
  // final, is shuffled to the lanes below it. L11 is read in its rows' order, from global.
  for (int c = j0 + width + tid / 32; c < end; c += warps) {
    double* const column = a + entry(0, c, lda);
    double x = lane < width ? column[j0 + lane] : 0.0;
    for (int k = 0; k + 1 < width; ++k) {
      const double known = __shfl_sync(0xffffffffu, x, k);
      if (lane > k && lane < width) x = eliminate(x, origin[entry(lane, k, lda)], known);
    }
    if (lane < width) column[j0 + lane] = x;
  }
  // The panel's composition needs every sub-panel's pivots: this one's are visible here.
  if (j0 + width == end && end - k0 < n && tid < 32) {
    store_moves(compose_swaps(pivots, k0, end, move_row, move_from), move_row, move_from,
                panel_moves);
  }
}

struct PanelShape {
  int width;
  bool staged;
};

}  // namespace

struct BlockedLu::State {
  EngineOptions options;
  std::string name;
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  cuda::DeviceArray<unsigned char> blas_workspace{
      0, kGeppCuda};  // given to cuBLAS, so a capture allocates nothing
  // The factorisation of one order, captured: its hundreds of launches replayed as one
  // (recaptured when the order, and with it every buffer, changes).
  cudaGraphExec_t factor_graph = nullptr;
  std::size_t graph_order = 0;
  // Event marks of a solve: start, uploaded, factored, substituted, downloaded.
  cudaEvent_t marks[5] = {};
  std::size_t staged_budget = 0;  // dynamic shared memory the panel kernel may use, bytes

  std::size_t n = 0;
  const double* matrix = nullptr;
  PinnedUpload uploader;
  cuda::DeviceArray<double> staging{0, kGeppCuda};  // the row-major matrix as sent
  cuda::DeviceArray<double> pristine{
      0, kGeppCuda};  // refactoring: the column-major matrix to start from
  cuda::DeviceArray<double> lu{
      0, kGeppCuda};  // column-major, leading dimension n: unit L below, U above
  cuda::DeviceArray<double> rhs{0, kGeppCuda};
  cuda::DeviceArray<int> pivots{0, kGeppCuda};     // step k swapped rows k and pivots[k]
  cuda::DeviceArray<int> row_order{0, kGeppCuda};  // an unstaged sub-panel's `logical`, n entries
  cuda::DeviceArray<SwapMoves> panel_moves{0, kGeppCuda};  // a panel's swaps, composed
  cuda::DeviceArray<PivotFailure> failure{0, kGeppCuda};
  std::vector<int> chosen;
  std::vector<int> permutation;  // row i of P A is row permutation[i] of A
  std::vector<double> permuted;
  PhaseTimes times;

  ~State() {
    if (factor_graph != nullptr) cudaGraphExecDestroy(factor_graph);
    if (blas != nullptr) cublasDestroy(blas);
    for (cudaEvent_t e : marks) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  int ni() const { return static_cast<int>(n); }
  void mark(int i) { check(cudaEventRecord(marks[i], stream), "cudaEventRecord"); }
  void read_times() {
    times = {elapsed_ms(marks[0], marks[1]), elapsed_ms(marks[1], marks[2]),
             elapsed_ms(marks[2], marks[3]), elapsed_ms(marks[3], marks[4])};
  }

  // The row-major matrix sent as it is (its column-major reading is A^T), then one
  // transposition on the device into the column-major target.
  void upload_matrix(double* target) {
    staging.resize(n * n);
    if (options.pinned_upload) {
      uploader.upload(staging.data(), matrix, n * n, stream);
    } else {
      staging.upload(matrix, n * n, stream);
    }
    const double one = 1.0;
    const double zero = 0.0;
    // B is A^T again with beta = 0, so that a non-finite entry stays where it is even if
    // cuBLAS reads B.
    check(cublasDgeam(blas, CUBLAS_OP_T, CUBLAS_OP_T, ni(), ni(), &one, staging.data(), ni(), &zero,
                      staging.data(), ni(), target, ni()),
          "cublasDgeam transposing the matrix");
  }

  // Shared memory a staged sub-panel takes: its entries and each row's place in LAPACK's
  // order.
  static std::size_t staged_bytes(int rows, int width) {
    return static_cast<std::size_t>(rows) *
           (static_cast<std::size_t>(width) * sizeof(double) + sizeof(int));
  }

  // The widest sub-panel (a power of two, at most block_size and kMaxPanelWidth) whose
  // rows fit in shared memory.
  PanelShape panel_shape(int rows) const {
    const int limit = std::min(options.block_size, kMaxPanelWidth);
    for (int w = kMaxPanelWidth; w >= 1; w /= 2) {
      if (w <= limit && staged_bytes(rows, w) <= staged_budget) return {w, true};
    }
    return {std::min(options.block_size, kUnstagedPanelWidth), false};
  }

  void factor_panel(int j0, int width, bool staged, int k0, int end) {
    const int rows = ni() - j0;
    const std::size_t bytes = staged ? staged_bytes(rows, width) : 0;
    // A thread per row up to panel_threads: the barriers of a short panel wait for fewer
    // warps.
    const int threads = std::min(options.panel_threads, (rows + 31) / 32 * 32);
    const auto kernel = staged ? factor_panel_kernel<true> : factor_panel_kernel<false>;
    kernel<<<1, threads, bytes, stream>>>(lu.data(), ni(), ni(), j0, width, k0, end, pivots.data(),
                                          row_order.data(), failure.data(), panel_moves.data());
    cuda::check_launch(kGeppCuda, "factor_panel_kernel");
  }

  // The swaps of steps [first, last), composed in `m`, in the columns [c0, c1) outside
  // [first, last).
  void apply_moves(int c0, int c1, int first, int last, const SwapMoves* m) {
    const int blocks = (c1 - c0 + kMoveColumns - 1) / kMoveColumns;
    apply_moves_kernel<<<blocks, dim3(kMoveLanes, kMoveColumns), 0, stream>>>(lu.data(), ni(), c0,
                                                                              c1, first, last, m);
    cuda::check_launch(kGeppCuda, "apply_moves_kernel");
  }

  // With the w columns from r0 factored, U's rows r0..r0+w-1 in columns [c0, c1):
  // U12 = L11^-1 A12 (DTRSM).
  void upper_rows(int r0, int w, int c0, int c1) {
    const double one = 1.0;
    double* const a = lu.data();
    check(
        cublasDtrsm(blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                    w, c1 - c0, &one, a + entry(r0, r0, ni()), ni(), a + entry(r0, c0, ni()), ni()),
        "cublasDtrsm");
  }

  // ... and then the rows below them: A22 -= L21 U12 (DGEMM).
  void lower_rows(int r0, int w, int c0, int c1) {
    const int below = ni() - r0 - w;
    if (below <= 0 || c1 <= c0) return;
    const double one = 1.0;
    const double minus_one = -1.0;
    double* const a = lu.data();
    check(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, below, c1 - c0, w, &minus_one,
                      a + entry(r0 + w, r0, ni()), ni(), a + entry(r0, c0, ni()), ni(), &one,
                      a + entry(r0 + w, c0, ni()), ni()),
          "cublasDgemm");
  }

  // Right-looking: each panel of block_size columns in sub-panels that fit in shared
  // memory (a sub-panel's kernel also swaps the panel's other columns and gives U's rows
  // right of it, leaving the DGEMM below), then the panel's swaps in every other column
  // and the trailing update.
  void factor() {
    // All bits set is step -1: no failure yet.
    check(cudaMemsetAsync(&failure.data()->step, 0xff, sizeof(int), stream), "cudaMemsetAsync");
    const int nb = options.block_size;
    for (int k0 = 0; k0 < ni(); k0 += nb) {
      const int end = std::min(k0 + nb, ni());
      for (int j0 = k0; j0 < end;) {
        const PanelShape shape = panel_shape(ni() - j0);
        const int width = std::min(shape.width, end - j0);
        factor_panel(j0, width, shape.staged, k0, end);
        lower_rows(j0, width, j0 + width, end);
        j0 += width;
      }
      if (end - k0 < ni()) apply_moves(0, ni(), k0, end, panel_moves.data());
      if (end < ni()) {
        upper_rows(k0, end - k0, end, ni());
        lower_rows(k0, end - k0, end, ni());
      }
    }
  }

  void run_factorization() {
    if (factor_graph == nullptr || graph_order != n) {
      if (factor_graph != nullptr)
        check(cudaGraphExecDestroy(factor_graph), "cudaGraphExecDestroy");
      factor_graph = nullptr;
      factor_graph = capture_graph(stream, [&] { factor(); });
      graph_order = n;
    }
    check(cudaGraphLaunch(factor_graph, stream), "cudaGraphLaunch");
  }

  // Waits for the factorisation, reports its first unusable pivot, and keeps P as a
  // permutation for the solves.
  void read_factorization() {
    PivotFailure f{};
    failure.download(&f, 1, stream);
    chosen.resize(n);
    pivots.download(chosen.data(), n, stream);
    check(cudaStreamSynchronize(stream), "blocked LU");
    if (f.step >= 0) throw SolverError(singular_pivot_message(f, n));
    permutation.resize(n);
    std::iota(permutation.begin(), permutation.end(), 0);
    for (std::size_t k = 0; k < n; ++k) std::swap(permutation[k], permutation[chosen[k]]);
  }

  // x = U^-1 L^-1 P b: P on the host (a gather of n entries), the two triangles by DTRSV.
  void substitute(const double* b, double* x) {
    permuted.resize(n);
    for (std::size_t i = 0; i < n; ++i) permuted[i] = b[permutation[i]];
    rhs.upload(permuted.data(), n, stream);
    check(cublasDtrsv(blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, ni(), lu.data(),
                      ni(), rhs.data(), 1),
          "cublasDtrsv (L)");
    check(cublasDtrsv(blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, ni(),
                      lu.data(), ni(), rhs.data(), 1),
          "cublasDtrsv (U)");
    mark(3);
    rhs.download(x, n, stream);
    mark(4);
    check(cudaStreamSynchronize(stream), "blocked LU substitution");
  }
};

BlockedLu::BlockedLu(const EngineOptions& options) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = options;
  s.name = cuda::select_device(options.device, kGeppCuda);
  check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  for (cudaEvent_t& e : s.marks) check(cudaEventCreate(&e), "cudaEventCreate");
  check(cublasCreate(&s.blas), "cublasCreate");
  check(cublasSetStream(s.blas, s.stream), "cublasSetStream");
  // cuBLAS's recommendation for Hopper, 32 MiB.
  constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;
  s.blas_workspace.resize(kWorkspaceBytes);
  check(cublasSetWorkspace(s.blas, s.blas_workspace.data(), kWorkspaceBytes), "cublasSetWorkspace");
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  int optin = 0;
  check(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
        "cudaDeviceGetAttribute");
  cudaFuncAttributes attributes{};
  check(cudaFuncGetAttributes(&attributes, factor_panel_kernel<true>), "cudaFuncGetAttributes");
  const int budget = optin - static_cast<int>(attributes.sharedSizeBytes);
  check(cudaFuncSetAttribute(factor_panel_kernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             budget),
        "cudaFuncSetAttribute(factor_panel_kernel)");
  s.staged_budget = static_cast<std::size_t>(budget);
}

BlockedLu::~BlockedLu() = default;

void BlockedLu::load(const double* a, std::size_t n) {
  State& s = *state_;
  if (n > static_cast<std::size_t>(INT_MAX / 2)) {
    throw SolverError("gepp-cuda: matrix of order " + std::to_string(n) + " is too large");
  }
  s.n = n;
  s.matrix = a;
  if (n == 0) return;
  s.lu.resize(n * n);
  s.rhs.resize(n);
  s.pivots.resize(n);
  s.row_order.resize(n);
  s.panel_moves.resize(1);
  s.failure.resize(1);
  if (!s.options.reuse_factorization) {
    s.pristine.resize(n * n);
    s.upload_matrix(s.pristine.data());
    check(cudaStreamSynchronize(s.stream), "keeping the matrix");
  }
}

void BlockedLu::factor() {
  State& s = *state_;
  if (s.n == 0) return;
  s.mark(0);
  s.upload_matrix(s.lu.data());
  s.mark(1);
  s.run_factorization();
  s.mark(2);
  s.mark(3);
  s.mark(4);
  s.read_factorization();
  s.read_times();
}

void BlockedLu::solve(const double* b, double* x) {
  State& s = *state_;
  if (s.n == 0) return;
  s.mark(0);
  if (!s.options.reuse_factorization) {
    check(cudaMemcpyAsync(s.lu.data(), s.pristine.data(), s.n * s.n * sizeof(double),
                          cudaMemcpyDeviceToDevice, s.stream),
          "cudaMemcpyAsync restoring the matrix");
  }
  s.mark(1);
  if (!s.options.reuse_factorization) {
    s.run_factorization();
    s.mark(2);
    s.read_factorization();
  } else {
    s.mark(2);
  }
  s.substitute(b, x);
  s.read_times();
}

const PhaseTimes& BlockedLu::last_times() const { return state_->times; }
const std::string& BlockedLu::device_name() const { return state_->name; }

double BlockedLu::updates_per_factorization() const {
  // Step k updates (n - k - 1)^2 entries: the sum over k.
  const double n = static_cast<double>(state_->n);
  return (n - 1.0) * n * (2.0 * n - 1.0) / 6.0;
}

}  // namespace solvent::dense
