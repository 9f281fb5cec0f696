#pragma once
// Launchers of the matm-cuda kernels (device pointers in, default stream, checked).
#include <solvent/cuda.hpp>
#include <solvent/errors.hpp>
#include <solvent_matm/split_operator.hpp>

namespace solvent::matm::cuda {

// Every CUDA failure of this plugin names it, through the SDK's one check.
inline void check(int status, const char* what) { solvent::cuda::check(status, "matm-cuda", what); }
inline void check_launch(const char* kernel) { solvent::cuda::check_launch("matm-cuda", kernel); }

// How the triangular sweeps are laid out on the GPU (TOML: block_x, block_z, sweep).
struct SweepShape {
  int block_x = 64;    // threads along x in one block
  int block_z = 8;     // rows (z layers) in one block; the block marches along y
  bool paper = false;  // true: Sukhinov et al.'s Algorithm 2, one node per thread on the
                       // i + j + k wavefront; false: a warp solves 32 x-nodes at once
};

// Device scratch the sweeps need: per-tile progress flags + ticket counter, and one
// partial inner product per tile.
struct SweepScratch {
  int* sync = nullptr;
  double* partials = nullptr;
};

int sweep_tiles(const SplitView& s, const SweepShape& shape);

// y = (D + w R1)^-1 src. With dot != nullptr, *dot (device) receives (D y, y).
void lower_sweep(const SplitView& s, const double* src, double* y, double omega,
                 const SweepShape& shape, const SweepScratch& scratch, double* dot);
// v = (D + w R2)^-1 D y.
void upper_sweep(const SplitView& s, const double* y, double* v, double omega,
                 const SweepShape& shape, const SweepScratch& scratch);

// Blocks the grid kernels below use; `partials` must hold 4 doubles per block.
int grid_blocks(const SplitView& s);

// x_out = x - tau w, r = A x_out - f; sums[0] = (r, r).
void update_and_residual(const SplitView& s, const double* x, const double* w, double tau,
                         double* x_out, const double* f, double* r, double* partials, double* sums);
// z0 = A0 v, z1 = A1 v (z1 may be null); sums[0..3] = (D v, v), (D^-1 R2 v, R2 v), (A0 v, v), (r,
// v).
void apply_split(const SplitView& s, const double* v, const double* r, double* z0, double* z1,
                 double* partials, double* sums);

// sums[q] = sum over b < count of partials[b * width + q], in a fixed order.
void reduce_partials(const double* partials, int count, int width, double* sums);

}  // namespace solvent::matm::cuda
