#pragma once
// Launchers of the elimination and substitution kernels (De Luca et al., section 4). Every
// launcher checks its launch; execution errors surface at the next synchronisation.
#include <cuda_runtime.h>

namespace solvent::dense {

// The first unusable pivot met by a factorisation (step < 0: none).
struct PivotFailure {
  int step;
  double value;
};

// One elimination step on the row-major n x ld array a (ld = n + 1: [A | b]).
// rhs: whether column n (the right-hand side) is eliminated along.
struct EliminationStep {
  int k;
  int row_end;  // last row read or updated (inclusive)
  int col_end;  // last matrix column updated (inclusive)
  bool rhs;
};

// First and last nonzero column of every row of the row-major n x n matrix a.
void launch_row_extents(const double* a, int n, int* first, int* last, cudaStream_t stream);

// Clears the failure record and the ticket counter of eliminate_and_pivot.
void launch_reset_failure(PivotFailure* failure, unsigned int* finished, cudaStream_t stream);
void launch_copy_rhs_into_matrix(double* a, int ld, int n, const double* b, cudaStream_t stream);

// De Luca et al.'s three kernels: atomic-max pivot search in one block, row swap with one
// thread per column of the whole row, and the 2D-grid elimination. whole_grid: the
// grid covers the whole augmented matrix as in the paper (threads outside the active
// submatrix do nothing); otherwise only the active submatrix.
void launch_pivot_search_atomic(const double* a, int ld, const EliminationStep& s, int* pivots,
                                PivotFailure* failure, cudaStream_t stream);
void launch_row_swap(double* a, int ld, int n, const EliminationStep& s, const int* pivots,
                     cudaStream_t stream);
void launch_eliminate(double* a, int ld, int n, const EliminationStep& s, bool whole_grid,
                      cudaStream_t stream);

// Beyond the paper: pivot search by warp-shuffle reduction and the row swap in one
// single-block kernel, used for the first step; every later one is folded into the
// previous step's elimination launch.
void launch_pivot_and_swap(double* a, int ld, int n, const EliminationStep& s, int* pivots,
                           PivotFailure* failure, cudaStream_t stream);
// Step s's elimination, then (by the last block to finish) the pivot search and row swap
// of step `next`: one launch per step. `finished` is a zeroed counter.
void launch_eliminate_and_pivot(double* a, int ld, int n, const EliminationStep& s,
                                const EliminationStep& next, int* pivots, PivotFailure* failure,
                                unsigned int* finished, cudaStream_t stream);

// Steps first..last (inclusive) of a zero-pattern run where every column is zero below
// the diagonal: pivots are the diagonal, checked in one launch.
void launch_diagonal_pivots(const double* a, int ld, int first, int last, int* pivots,
                            PivotFailure* failure, cudaStream_t stream);

// Forward (factored: y = L^-1 P b) and back substitution on the device, in one block.
// factored = false: the right-hand side was eliminated along; y is column n.
// lower_begin / upper_end bound each factor row's nonzeros (see FactorProfile).
struct Substitution {
  const double* lu;
  int ld;
  int n;
  const int* permutation;  // b index of each y entry; factored only
  const int* lower_begin;
  const int* upper_end;
  bool factored;
};
// False when n is too large for the kernel's shared-memory vectors on this device.
bool prepare_substitution(int n);
void launch_substitute(const Substitution& s, const double* b, double* x, cudaStream_t stream);

}  // namespace solvent::dense
