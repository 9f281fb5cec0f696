#pragma once
// Launchers of the matm-cuda kernels (device pointers in, default stream, checked). Every
// kernel works on the nodes of a Box only (the view's own nodes: all of them on one rank,
// the block inside its ghost layer over ranks), so ghost values received are never
// overwritten.
#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>
#include <solvent_matm/split_operator.hpp>

#include <cstddef>

namespace solvent::matm::cuda {

// Every CUDA failure of this plugin names it, through the SDK's one check.
inline void check(int status, const char* what) { solvent::cuda::check(status, "matm-cuda", what); }
inline void check_launch(const char* kernel) { solvent::cuda::check_launch("matm-cuda", kernel); }

// The most threads a sweep block may have, and the most for which the sweeps are compiled with
// 128 registers a thread: at 64, what 1024 threads leave, the sweep kept its step's values in
// local memory and reloaded its parameters every step, which lengthened the step. Larger
// blocks (Sukhinov et al.'s tuning experiment has 640 threads) run a build for 1024 threads.
constexpr int max_sweep_threads = 1024, narrow_sweep_threads = 512;

// How the triangular sweeps are laid out on the GPU (TOML: block_x, block_z, sweep).
struct SweepShape {
  int block_x = 0;  // threads along x in one block; 0: see resolved()
  int block_z = 0;  // rows (z layers) in one block (the block marches along y); 0: see resolved()
  bool paper = false;  // true: Sukhinov et al.'s Algorithm 2, one node per thread on the
                       // i + j + k wavefront; false: a warp solves 32 x-nodes at once
};

// The shape with its zeros filled in for sweeps whose ranges are at most nx nodes wide along x:
// block_x = 0 takes nx rounded up to 32, at most 256 and at most what fits beside block_z in
// narrow_sweep_threads (the fewer tiles along x, the fewer hand-offs between blocks); block_z = 0
// takes narrow_sweep_threads' worth of layers. On an H100 at 256^3 the 256 x 2 this gives took
// 0.73 ms a lower sweep against 0.76 ms for 64 x 8.
SweepShape resolved(SweepShape shape, index_t nx);

// Over ranks whose GPUs map each other's memory (solvent::cuda::PeerWindow), the sweep runs
// as one wavefront across them: a block's last plane along axis 2 or 3 is stored, node by
// node as it is computed, into the slots of the neighbour the sweep goes on to (out), and
// the neighbour's sweep, already running, waits on each slot as it does on another block's
// hand-off (in). Per axis; null where no neighbour lies that way. A node's slot on an
// axis-1 face is kl * nj + jl, on an axis-2 face kl * ni + il, on an axis-3 face
// jl * ni + il, in the counts from the range's first node in the sweep's direction, which
// the two ranks of a face share (their blocks have the same extents along it).
struct SweepPeers {
  double* in[3] = {nullptr, nullptr, nullptr};
  double* out[3] = {nullptr, nullptr, nullptr};
};

// What one sweep launch covers: the own nodes with i0 <= i < i1 (the whole line on one rank,
// a fragment of the pipeline over ranks). The nodes before it in the sweep's direction are
// read, not written: the fragment before along axis 1, the ghost planes along axes 2 and 3
// (or their values through `peers`).
struct SweepRange {
  Box own;
  index_t i0 = 0, i1 = 0;
  SweepPeers peers;
};

// Blocks (tiles) of one sweep launch; for a dot product, each leaves one partial sum. A launch
// deals its tiles out through `ticket_counter` (one int of device memory).
int sweep_tiles(const SweepRange& r, const SweepShape& shape);

// The values a launch hands from one block to the next pass through `handoff`, a buffer of at
// least this many doubles (for the range's upper and lower sweeps alike), armed by
// arm_handoff once and left armed by every complete launch.
std::size_t sweep_handoff_slots(const SweepRange& r, const SweepShape& shape);
// Also arms a PeerWindow's slots, which the neighbours' sweeps fill.
void arm_handoff(double* handoff, std::size_t slots);

// y = (D + w R1)^-1 src on the range. With partials != nullptr, partials[t] receives tile
// t's share of (D y, y).
void lower_sweep(const SplitView& s, const SweepRange& r, const double* src, double* y,
                 double omega, const SweepShape& shape, int* ticket_counter, double* handoff,
                 double* partials);
// y = (D + w R1)^-1 A0 w on the range, A0 w formed node by node and not stored, with the
// products of w eq. (5) needs: partials[5 t + q] receives tile t's share of (D w, w),
// (D^-1 R2 w, R2 w), (A0 w, w), (res, w) and (D y, y), the order of the device sums. For
// self-adjoint operators and blocks of at most narrow_sweep_threads (product_in_sweep); over
// ranks w needs its ghosts. It saves the pass that stores A0 w and the sweep's load of it.
bool product_in_sweep(bool self_adjoint, const SweepShape& shape);
void lower_sweep_of_product(const SplitView& s, const SweepRange& r, const double* w,
                            const double* res, double* y, double omega, const SweepShape& shape,
                            int* ticket_counter, double* handoff, double* partials);
// v = (D + w R2)^-1 D y on the range.
void upper_sweep(const SplitView& s, const SweepRange& r, const double* y, double* v, double omega,
                 const SweepShape& shape, int* ticket_counter, double* handoff);

// Blocks the grid kernels below use on `own`; `partials` must hold 4 doubles per block.
int grid_blocks(const Box& own);

// x = x - tau w on the own nodes (0 on inactive ones): the step alone, over ranks, where x's
// ghost layer is exchanged between it and the residual.
void update(const SplitView& s, const Box& own, double* x, const double* w, double tau);
// x_out = x_in - tau w on the ghost layer's face nodes (0 where inactive): with the ghosts of
// w current, the neighbours' step without an exchange of x.
void update_ghosts(const SplitView& s, const Box& own, const double* x_in, const double* w,
                   double tau, double* x_out);
// x_out = x - tau w, r = A x_out - f; sums[0] = (r, r). Over ranks x and w need their ghosts.
// x_out null: x is the iterate already (tau = 0), nothing is written but r.
void update_and_residual(const SplitView& s, const Box& own, const double* x, const double* w,
                         double tau, double* x_out, const double* f, double* r, double* partials,
                         double* sums);
// z0 = A0 v, z1 = A1 v (z1 may be null); sums[0..3] = (D v, v), (D^-1 R2 v, R2 v), (A0 v, v),
// (r, v). Over ranks v needs its ghosts.
void apply_split(const SplitView& s, const Box& own, const double* v, const double* r, double* z0,
                 double* z1, double* partials, double* sums);
// (v, v) over the own active nodes (c0 != 0) into sums[0].
void sum_of_squares(const SplitView& s, const Box& own, const double* v, double* partials,
                    double* sums);

// An axis-1 face (upper: the one at own.hi[0]) of a field with a ghost layer, packed as
// HaloExchange packs it (axis 2 fastest): the own plane next to the face into `packed` (which
// may be a neighbour's memory), or `packed` into the ghost plane beyond it. A strip copy
// would move 8 bytes a row.
void pack_axis1_face(const SplitView& s, const Box& own, bool upper, const double* field,
                     double* packed);
void unpack_axis1_face(const SplitView& s, const Box& own, bool upper, const double* packed,
                       double* field);

// The own nodes of a field with a ghost layer against the block's values in the caller's
// order (axis 1 fastest, no ghosts): `block` into the own nodes (0 on the inactive ones
// where inactive_zero), or the own nodes out into `block`. On the device, so that a solve
// over ranks moves its right-hand side, guess and solution by the staged copies alone
// instead of through a copy of the view on the host.
void block_to_view(const SplitView& s, const Box& own, const double* block, double* field,
                   bool inactive_zero);
void view_to_block(const SplitView& s, const Box& own, const double* field, double* block);

// sums[q] = sum over b < count of partials[b * width + q], in a fixed order.
void reduce_partials(const double* partials, int count, int width, double* sums);

}  // namespace solvent::matm::cuda
