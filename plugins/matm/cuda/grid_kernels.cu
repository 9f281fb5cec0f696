// The non-recursive vector work of a MATM iteration: the residual (with the previous
// step x - tau w fused in), the products with A0 and A1, and inner products. A block owns a
// tile of 32 x 8 grid columns (coalesced along x) and marches along z through a chunk of the
// own box's layers, so the layers k - 1 and k + 1 a node reads were read by the same block
// one layer before or are read again one layer later, from L1: a whole line per block
// (the layout before) fetched the neighbouring lines and layers from L2 and DRAM again, and
// the residual moved 61% of peak DRAM bandwidth for 2.3x its floor at 256^3 on an H100.
// Each block leaves one partial sum per quantity; reduce_partials adds them in a fixed
// order, so results do not depend on timing. Only the own box is walked (over ranks the ghost
// layer is read; only ghost_update_kernel writes it).
#include "cuda/kernels.hpp"

#include <solvent_matm/split_operator.hpp>

namespace solvent::matm::cuda {
namespace {

constexpr int tile_x = 32, tile_y = 8, threads_per_block = tile_x * tile_y;
// Three blocks an SM: at four (64 registers a thread) the residual spilled 32 bytes a thread,
// and Nsight Compute counted 4.2 million local-memory requests in one launch at 256^3.
constexpr int blocks_per_sm = 3;
// About four waves of blocks on a 132-SM card (H100, H200); the z layers are split into that
// many chunks at most. At 256^3 on an H200 the residual took 450 us with these two, 485 us
// with four blocks an SM and 1024 blocks (1.94 waves), 454-477 us with 2112 to 4224 blocks.
constexpr int target_blocks = 4 * 132 * blocks_per_sm;

// The block grid over a box: tiles of the (x, y) plane times chunks of z layers.
struct Marching {
  index_t tiles_x, tiles_y, chunks, layers_per_chunk;
  SOLVENT_HD explicit Marching(const Box& own) {
    const index_t n1 = own.hi[0] - own.lo[0], n2 = own.hi[1] - own.lo[1],
                  n3 = own.hi[2] - own.lo[2];
    // At least one block, also for an empty box, so that every launch is valid.
    tiles_x = n1 > tile_x ? (n1 + tile_x - 1) / tile_x : 1;
    tiles_y = n2 > tile_y ? (n2 + tile_y - 1) / tile_y : 1;
    index_t c = target_blocks / (tiles_x * tiles_y);
    c = c < 1 ? 1 : (c > n3 ? (n3 > 0 ? n3 : 1) : c);
    layers_per_chunk = (n3 + c - 1) / c;
    chunks = layers_per_chunk > 0 ? (n3 + layers_per_chunk - 1) / layers_per_chunk : 1;
  }
  index_t blocks() const { return tiles_x * tiles_y * chunks; }
};

// Calls visit(i, j, k, c0) for this thread's column of the block's tile, layer by layer, with
// the node's diagonal c0. The node formulas branch on c0, so a layer's other loads would
// wait for its c0 from DRAM: it is loaded one layer ahead, and the formulas' own load of it
// finds it in L1.
template <class Visit>
__device__ void march(const SplitView& s, const Box& own, Visit&& visit) {
  const Marching g(own);
  const index_t b = blockIdx.x;
  const index_t tx = b % g.tiles_x, ty = b / g.tiles_x % g.tiles_y, c = b / (g.tiles_x * g.tiles_y);
  const index_t i = own.lo[0] + tx * tile_x + threadIdx.x % tile_x,
                j = own.lo[1] + ty * tile_y + threadIdx.x / tile_x;
  if (i >= own.hi[0] || j >= own.hi[1]) return;
  const index_t k0 = own.lo[2] + c * g.layers_per_chunk;
  const index_t k1 = k0 + g.layers_per_chunk < own.hi[2] ? k0 + g.layers_per_chunk : own.hi[2];
  const index_t plane = s.n1 * s.n2;
  double c0 = k0 < k1 ? s.c0[s.index(i, j, k0)] : 0.0;
  for (index_t k = k0; k < k1; ++k) {
    const double c0_next = k + 1 < k1 ? s.c0[s.index(i, j, k) + plane] : 0.0;
    visit(i, j, k, c0);
    c0 = c0_next;
  }
}

// The lines a marching thread's next layer k + 1 reads first from memory, fetched into L2
// while it works on layer k: node m's own lines of that layer (here) and, for its neighbour
// above, of layer k + 2 (above); null arrays are skipped. A march waits on each layer's loads
// from DRAM: at 256^3 on an H200 the residual took 450 us without, 415-426 us with this (the
// same into L1). A prefetch is a hint that no register waits for; no address past an array
// is formed.
template <int Here, int Above>
__device__ void prefetch_next_layer(const SplitView& s, const Box& own, index_t k, index_t m,
                                    const double* const (&here)[Here],
                                    const double* const (&above)[Above]) {
  if (k + 1 >= own.hi[2]) return;
  const index_t plane = s.n1 * s.n2;
  for (const double* a : here)
    if (a) asm volatile("prefetch.global.L2 [%0];" ::"l"(a + m + plane));
  if (k + 2 >= s.n3) return;
  for (const double* a : above)
    if (a) asm volatile("prefetch.global.L2 [%0];" ::"l"(a + m + 2 * plane));
}

// Sums v[q] over the block into partials[blockIdx.x * K + q].
template <int K>
__device__ void block_partials(double (&v)[K], double* partials) {
  __shared__ double s[K][threads_per_block];
  const int t = threadIdx.x;
  for (int q = 0; q < K; ++q) s[q][t] = v[q];
  __syncthreads();
  for (int w = threads_per_block / 2; w > 0; w >>= 1) {
    if (t < w)
      for (int q = 0; q < K; ++q) s[q][t] += s[q][t + w];
    __syncthreads();
  }
  if (t == 0)
    for (int q = 0; q < K; ++q) partials[blockIdx.x * K + q] = s[q][0];
}

__global__ void __launch_bounds__(threads_per_block, blocks_per_sm)
    residual_kernel(SplitView s, Box own, const double* __restrict__ x,
                    const double* __restrict__ w, double tau, double* __restrict__ x_out,
                    const double* __restrict__ f, double* __restrict__ r, double* partials) {
  double rr[1] = {0.0};
  const UpdatedValues updated{x, w, tau};
  march(s, own, [&](index_t i, index_t j, index_t k, double c0) {
    const index_t m = s.index(i, j, k);
    prefetch_next_layer(s, own, k, m, {f, s.lower[0], s.lower[1], s.skew[0], s.skew[1]},
                        {x, w, s.lower[2], s.skew[2]});
    if (c0 == 0.0) {
      if (x_out) x_out[m] = 0.0;
      r[m] = 0.0;
      return;
    }
    const NodeProducts p = apply_node(s, updated, i, j, k);
    if (x_out) x_out[m] = updated(m);
    r[m] = p.a0 + p.a1 - f[m];
    rr[0] += r[m] * r[m];
  });
  block_partials(rr, partials);
}

__global__ void __launch_bounds__(threads_per_block, blocks_per_sm)
    squares_kernel(SplitView s, Box own, const double* __restrict__ v, double* partials) {
  double vv[1] = {0.0};
  march(s, own, [&](index_t i, index_t j, index_t k, double c0) {
    const index_t m = s.index(i, j, k);
    if (c0 != 0.0) vv[0] += v[m] * v[m];
  });
  block_partials(vv, partials);
}

__global__ void update_kernel(SplitView s, Box own, double* x, const double* __restrict__ w,
                              double tau) {
  const UpdatedValues updated{x, w, tau};
  march(s, own, [&](index_t i, index_t j, index_t k, double c0) {
    const index_t m = s.index(i, j, k);
    // Each thread reads and writes its own node only, so the step may be in place.
    x[m] = c0 == 0.0 ? 0.0 : updated(m);
  });
}

__global__ void __launch_bounds__(threads_per_block, blocks_per_sm)
    apply_kernel(SplitView s, Box own, const double* __restrict__ v, const double* __restrict__ r,
                 double* __restrict__ z0, double* __restrict__ z1, double* partials) {
  ProductSums sums;
  march(s, own, [&](index_t i, index_t j, index_t k, double c0) {
    const index_t m = s.index(i, j, k);
    prefetch_next_layer(s, own, k, m, {r, s.lower[0], s.lower[1], s.skew[0], s.skew[1]},
                        {v, s.lower[2], s.skew[2]});
    const NodeProducts p = apply_node(s, Values{v}, i, j, k);
    z0[m] = p.a0;
    if (z1) z1[m] = p.a1;
    sums.add(c0, v[m], p, r[m]);
  });
  double d[4] = {sums.d_v_v, sums.r2_v, sums.a0_v_v, sums.r_v};
  block_partials(d, partials);
}

__global__ void reduce_kernel(const double* partials, int count, int width, double* sums) {
  __shared__ double s[threads_per_block];
  const int t = threadIdx.x;
  for (int q = 0; q < width; ++q) {
    double acc = 0.0;
    for (int b = t; b < count; b += threads_per_block) acc += partials[b * width + q];
    s[t] = acc;
    __syncthreads();
    for (int w = threads_per_block / 2; w > 0; w >>= 1) {
      if (t < w) s[t] += s[t + w];
      __syncthreads();
    }
    if (t == 0) sums[q] = s[0];
    __syncthreads();
  }
}

// Node (j, k) of an axis-1 face: the plane at i, one thread per node.
__global__ void axis1_face_kernel(SplitView s, Box own, index_t i, const double* from, double* to,
                                  bool pack) {
  const index_t nj = own.hi[1] - own.lo[1], nk = own.hi[2] - own.lo[2];
  for (index_t q = blockIdx.x * index_t(blockDim.x) + threadIdx.x; q < nj * nk;
       q += index_t(gridDim.x) * blockDim.x) {
    const index_t m = s.index(i, own.lo[1] + q % nj, own.lo[2] + q / nj);
    if (pack)
      to[q] = from[m];
    else
      to[m] = from[q];
  }
}

constexpr int face_blocks = 264;

// The step x - tau w on the ghost nodes across the own box's six faces (the other two
// coordinates inside the box), from x_in and w into x_out, with the expression the owner
// steps that node by (residual_kernel's x_out: UpdatedValues, 0 where c0 = 0). A face on the
// grid's boundary is inactive (c0 = 0) and stays 0.
__global__ void ghost_update_kernel(SplitView s, Box own, const double* __restrict__ x_in,
                                    const double* __restrict__ w, double tau,
                                    double* __restrict__ x_out) {
  const index_t e[3] = {own.hi[0] - own.lo[0], own.hi[1] - own.lo[1], own.hi[2] - own.lo[2]};
  const index_t face[3] = {e[1] * e[2], e[0] * e[2], e[0] * e[1]};
  const index_t total = 2 * (face[0] + face[1] + face[2]);
  const UpdatedValues updated{x_in, w, tau};
  for (index_t q = blockIdx.x * index_t(blockDim.x) + threadIdx.x; q < total;
       q += index_t(gridDim.x) * blockDim.x) {
    index_t rest = q;
    int f = 0;
    while (rest >= face[f / 2]) rest -= face[f++ / 2];
    const int a = f / 2, b = (a + 1) % 3, c = (a + 2) % 3;
    index_t at[3];
    at[a] = f % 2 == 0 ? own.lo[a] - 1 : own.hi[a];
    at[b] = own.lo[b] + rest % e[b];
    at[c] = own.lo[c] + rest / e[b];
    const index_t m = s.index(at[0], at[1], at[2]);
    x_out[m] = s.c0[m] == 0.0 ? 0.0 : updated(m);
  }
}

__global__ void own_nodes_kernel(SplitView s, Box own, const double* __restrict__ from,
                                 double* __restrict__ to, bool to_view, bool inactive_zero) {
  const index_t w1 = own.hi[0] - own.lo[0], w2 = own.hi[1] - own.lo[1];
  march(s, own, [&](index_t i, index_t j, index_t k, double c0) {
    const index_t m = s.index(i, j, k);
    const index_t b = (i - own.lo[0]) + w1 * ((j - own.lo[1]) + w2 * (k - own.lo[2]));
    if (to_view)
      to[m] = inactive_zero && c0 == 0.0 ? 0.0 : from[b];
    else
      to[b] = from[m];
  });
}

}  // namespace

void pack_axis1_face(const SplitView& s, const Box& own, bool upper, const double* field,
                     double* packed) {
  axis1_face_kernel<<<face_blocks, threads_per_block>>>(s, own, upper ? own.hi[0] - 1 : own.lo[0],
                                                        field, packed, true);
  check_launch("face packing kernel");
}

void unpack_axis1_face(const SplitView& s, const Box& own, bool upper, const double* packed,
                       double* field) {
  axis1_face_kernel<<<face_blocks, threads_per_block>>>(s, own, upper ? own.hi[0] : own.lo[0] - 1,
                                                        packed, field, false);
  check_launch("face unpacking kernel");
}

void block_to_view(const SplitView& s, const Box& own, const double* block, double* field,
                   bool inactive_zero) {
  own_nodes_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, block, field, true,
                                                            inactive_zero);
  check_launch("block-to-view kernel");
}

void view_to_block(const SplitView& s, const Box& own, const double* field, double* block) {
  own_nodes_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, field, block, false, false);
  check_launch("view-to-block kernel");
}

int grid_blocks(const Box& own) { return int(Marching(own).blocks()); }

void update_ghosts(const SplitView& s, const Box& own, const double* x_in, const double* w,
                   double tau, double* x_out) {
  ghost_update_kernel<<<face_blocks, threads_per_block>>>(s, own, x_in, w, tau, x_out);
  check_launch("ghost update kernel");
}

void update(const SplitView& s, const Box& own, double* x, const double* w, double tau) {
  update_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, x, w, tau);
  check_launch("update kernel");
}

void update_and_residual(const SplitView& s, const Box& own, const double* x, const double* w,
                         double tau, double* x_out, const double* f, double* r, double* partials,
                         double* sums) {
  residual_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, x, w, tau, x_out, f, r,
                                                           partials);
  check_launch("residual kernel");
  reduce_partials(partials, grid_blocks(own), 1, sums);
}

void sum_of_squares(const SplitView& s, const Box& own, const double* v, double* partials,
                    double* sums) {
  squares_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, v, partials);
  check_launch("sum of squares kernel");
  reduce_partials(partials, grid_blocks(own), 1, sums);
}

void apply_split(const SplitView& s, const Box& own, const double* v, const double* r, double* z0,
                 double* z1, double* partials, double* sums) {
  apply_kernel<<<grid_blocks(own), threads_per_block>>>(s, own, v, r, z0, z1, partials);
  check_launch("operator kernel");
  reduce_partials(partials, grid_blocks(own), 4, sums);
}

void reduce_partials(const double* partials, int count, int width, double* sums) {
  reduce_kernel<<<1, threads_per_block>>>(partials, count, width, sums);
  check_launch("reduction kernel");
}

}  // namespace solvent::matm::cuda
