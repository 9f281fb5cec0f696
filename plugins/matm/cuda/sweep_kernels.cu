// The triangular sweeps of the MATM preconditioner, pipelined as in Sukhinov et al.'s
// Algorithm 2: a block owns block_x nodes along x times block_z layers along z and
// marches along y; row tz of the block works on line j = t - g - tz at step t, so the
// three lower neighbours of a node (x-1, y-1, z-1) were finished one step earlier and sit
// in a register (y-1) or in the shared-memory cache of the previous step (x-1, z-1).
//
// Two choices Sukhinov 2021 leaves open, made here:
// - Along x, `paper` mode keeps Sukhinov 2021's one node per thread (thread tx lags tx steps,
//   so a warp touches 32 different y lines: strided, uncoalesced loads). The default mode
//   gives a warp 32 consecutive x-nodes of one line and solves their x-recurrence
//   y_i = q_i + beta_i y_{i-1} by a scan over affine maps (5 shuffle rounds): coalesced
//   loads and 32 times fewer pipeline steps along x. Same sums in a different order, so
//   the iterates agree with the CPU's to rounding.
// - Blocks depend on their -x and -z neighbours, and wait for the values themselves, not for
//   progress flags. A tile's last layer along z and last column along x, the values another
//   block reads, are also stored in a hand-off buffer whose slots hold a signalling NaN no
//   arithmetic produces until then; the reading thread spins on its slot until the value has
//   replaced it, and puts the NaN back for the next launch. The read is the signal, so a
//   hand-off costs one L2 round trip and no fence: progress flags (a release fence, a flag,
//   an acquire load, then the value) made a sweep at 256^3 about 1.4x slower on an H100, and
//   arming the nodes in the output before each launch cost a kernel of 25 to 50 us. Each
//   block takes a ticket (atomicAdd) and owns tile `ticket`, tiles numbered x fastest, so
//   every tile it waits for belongs to a block that is already running: no deadlock
//   whatever the occupancy.
// A launch sweeps a range of own nodes (SweepRange): on one rank the whole grid; over ranks
// one fragment of axis 1 of the block, whose nodes before it in the sweep's direction (the
// fragment before, the ghost planes received from the neighbours) are read from memory
// where one rank would start from 0 at the grid's edge.
#include "cuda/kernels.hpp"

#include <math_constants.h>

#include <algorithm>

#include <solvent_matm/split_operator.hpp>

namespace solvent::matm::cuda {
namespace {

constexpr unsigned full_mask = 0xffffffffu;

// What a step reads of its node, loaded steps ahead (pipelined_sweep): source is src at the
// node (an upper sweep's right-hand side is c0 times it), cx, cy, cz the couplings its
// formula takes.
struct NodeInputs {
  double c0 = 0.0, source = 0.0, cx = 0.0, cy = 0.0, cz = 0.0;
  // A sweep of A0 w (FromW): w at the node and its neighbours, the couplings to the upper
  // ones (cx, cy, cz are those to the lower ones) and the residual, for eq. (5)'s products.
  Neighbours w;
  double wm = 0.0, res = 0.0;
};

// A thread's nodes, one per line of the range: (il, kl) count from the range's first node in
// the sweep's direction (upper sweeps run the same code on the range mirrored in every axis),
// and line jl's node is at view index m0 + jl * line_step. Worked out once, so a step's
// loads cost one multiply-add of their address.
struct Column {
  index_t m0 = 0, line_step = 0, plane = 0, n1 = 0;
  index_t y_edge = 0;               // Upper: lines jl <= y_edge have no upper y neighbour
  bool x_up = false, z_up = false;  // the upper x and z neighbours are in the view
  // Lower: the lower x and z neighbours are in the view; lines jl >= y_first have a lower y
  // neighbour and lines jl < y_last an upper one.
  bool x_lo = false, z_lo = false;
  index_t y_first = 0, y_last = 0;
};

template <bool Upper>
__device__ Column column(const SplitView& s, const SweepRange& r, index_t il, index_t kl) {
  Column c;
  const index_t i = Upper ? r.i1 - 1 - il : r.i0 + il,
                k = Upper ? r.own.hi[2] - 1 - kl : r.own.lo[2] + kl;
  c.n1 = s.n1;
  c.plane = s.n1 * s.n2;
  c.m0 = s.index(i, Upper ? r.own.hi[1] - 1 : r.own.lo[1], k);
  c.line_step = Upper ? -s.n1 : s.n1;
  c.y_edge = r.own.hi[1] - s.n2;
  c.x_up = i + 1 < s.n1;
  c.z_up = k + 1 < s.n3;
  c.x_lo = i > 0;
  c.z_lo = k > 0;
  c.y_first = 1 - r.own.lo[1];
  c.y_last = s.n2 - 1 - r.own.lo[1];
  return c;
}

// FromW: src is w and res the residual; the source is A0 w, formed at the step by
// symmetric_products.
template <bool Upper, bool FromW>
__device__ NodeInputs load_inputs(const SplitView& s, const Column& c,
                                  const double* __restrict__ src, const double* __restrict__ res,
                                  index_t jl) {
  NodeInputs in;
  const index_t m = c.m0 + jl * c.line_step;
  in.c0 = s.c0[m];
  if (Upper) {
    // The couplings to the upper neighbours; none past the view's edge.
    // D y's factor c0 is applied when the step uses it: a multiply here would wait for both
    // loads, stalling the step that issues them (an upper sweep at 256^3 on an H100: 0.89 ms
    // with it here, 0.77 ms without).
    in.source = src[m];
    in.cx = c.x_up ? s.lower[0][m + 1] : 0.0;
    in.cy = jl > c.y_edge ? s.lower[1][m + c.n1] : 0.0;
    in.cz = c.z_up ? s.lower[2][m + c.plane] : 0.0;
  } else {
    in.cx = s.lower[0][m];
    in.cy = s.lower[1][m];
    in.cz = s.lower[2][m];
    if constexpr (FromW) {
      // What apply_node reads, in the same order of terms; absent neighbours stay 0.
      const index_t plane = c.plane, n1 = c.n1;
      in.wm = src[m];
      in.res = res[m];
      if (c.x_lo) in.w.lower_v[0] = src[m - 1];
      if (jl >= c.y_first) in.w.lower_v[1] = src[m - n1];
      if (c.z_lo) in.w.lower_v[2] = src[m - plane];
      if (c.x_up) {
        in.w.upper_c[0] = s.lower[0][m + 1];
        in.w.upper_v[0] = src[m + 1];
      }
      if (jl < c.y_last) {
        in.w.upper_c[1] = s.lower[1][m + n1];
        in.w.upper_v[1] = src[m + n1];
      }
      if (c.z_up) {
        in.w.upper_c[2] = s.lower[2][m + plane];
        in.w.upper_v[2] = src[m + plane];
      }
    } else {
      in.source = src[m];
    }
  }
  return in;
}

// A hand-off slot holds this until its value is stored: a signalling NaN. GPU arithmetic
// returns the canonical quiet NaN, so no computed value has these bits (a value that had them
// would be stored as that NaN, see publish).
constexpr long long waiting_bits = 0x7ff4dead5e7f1a95ll;

// Where a slot's value comes from: another block of this GPU, or another GPU (a neighbour
// rank's sweep storing over NVLink or PCIe).
enum class From { ThisGpu, OtherGpu };

// Loads and stores the spinning reader may observe, at GPU scope for another block (a plain
// load could be served from L1 or hoisted out of the loop) and at system scope for another
// GPU (a GPU-scope load may be served by this GPU's caches without seeing that store).
template <From F>
__device__ double load_relaxed(const double* p) {
  double v;
  if constexpr (F == From::ThisGpu)
    asm volatile("ld.relaxed.gpu.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
  else
    asm volatile("ld.relaxed.sys.global.f64 %0, [%1];" : "=d"(v) : "l"(p) : "memory");
  return v;
}

template <From F>
__device__ void store_relaxed(double* p, double v) {
  if constexpr (F == From::ThisGpu)
    asm volatile("st.relaxed.gpu.global.f64 [%0], %1;" ::"l"(p), "d"(v) : "memory");
  else
    asm volatile("st.relaxed.sys.global.f64 [%0], %1;" ::"l"(p), "d"(v) : "memory");
}

template <From F = From::ThisGpu>
__device__ void publish(double* slot, double v) {
  store_relaxed<F>(slot, __double_as_longlong(v) == waiting_bits ? CUDART_NAN : v);
}

// The value of a slot, once stored; the slot waits again afterwards.
template <From F = From::ThisGpu>
__device__ double take(double* slot) {
  double v = load_relaxed<F>(slot);
  while (__double_as_longlong(v) == waiting_bits) v = load_relaxed<F>(slot);
  store_relaxed<F>(slot, __longlong_as_double(waiting_bits));
  return v;
}

__global__ void arm_kernel(double* v, std::size_t n) {
  for (std::size_t q = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; q < n;
       q += std::size_t(gridDim.x) * blockDim.x)
    v[q] = __longlong_as_double(waiting_bits);
}

// The hand-off slots of a launch, counted in the sweep's direction: first, for each tile
// boundary along z (layer index c = kl / block_z - 1 of the reader), the reader's line
// [c][jl][il]; then, for each boundary along x (column c = il / block_x - 1 of the reader),
// [c][kl][jl]. Upper and lower sweeps of a range use the same slots.
struct Slots {
  index_t ni, nj, nk, bx, bz, z_slots;
  __host__ __device__ Slots(const SweepRange& r, index_t block_x, index_t block_z)
      : ni(r.i1 - r.i0),
        nj(r.own.hi[1] - r.own.lo[1]),
        nk(r.own.hi[2] - r.own.lo[2]),
        bx(block_x),
        bz(block_z),
        z_slots((nk - 1) / bz * nj * ni) {}
  // A reader's slot for line jl is at first + jl * ni (z) or first + jl (x).
  __host__ __device__ index_t z_first(index_t il, index_t kl_reader) const {
    return (kl_reader / bz - 1) * nj * ni + il;
  }
  __host__ __device__ index_t x_first(index_t il_reader, index_t kl) const {
    return z_slots + ((il_reader / bx - 1) * nk + kl) * nj;
  }
  __host__ __device__ index_t count() const { return z_slots + (ni - 1) / bx * nk * nj; }
};

// A node's factors (sweep_factors) and what a warp's scan of its 32 nodes (G = 32) takes of
// them. Ahead: the products of beta the scan's five rounds take are formed here too, before
// the step: round k adds the value 2^k lanes below times b[k] (0 where no lane is that far
// below), and the carry-in enters times b_all, so what is left for the step is one
// multiply-add a round. Otherwise the step scans the products beside the values, as pairs.
template <int G, bool Ahead>
struct ScanFactors {
  SweepFactors node;
  double c0 = 0.0;
  double b[5] = {0.0, 0.0, 0.0, 0.0, 0.0}, b_all = 0.0;
  ScanFactors() = default;
  __device__ ScanFactors(const SweepFactors& f, double c0_, int lane)
      : node(f), c0(c0_), b_all(f.beta) {
    if constexpr (G == 32 && Ahead) {
#pragma unroll
      for (int k = 0; k < 5; ++k) {
        const int o = 1 << k;
        const double below = __shfl_up_sync(full_mask, b_all, o);
        if (lane >= o) {
          b[k] = b_all;
          b_all *= below;
        }
      }
    }
  }
  // The node's value: its map a after those of the nodes before it in the group (an inclusive
  // scan), applied to the group's carry-in (lane 0's).
  __device__ double solve(const Affine& a, double carry, int lane) const {
    double q = a.q, beta = b_all;
    if constexpr (G == 32) {
#pragma unroll
      for (int k = 0; k < 5; ++k) {
        const int o = 1 << k;
        const double q_below = __shfl_up_sync(full_mask, q, o);
        if constexpr (Ahead) {
          q = fma(b[k], q_below, q);
        } else {
          const double beta_below = __shfl_up_sync(full_mask, beta, o);
          if (lane >= o) {
            q = fma(beta, q_below, q);
            beta *= beta_below;
          }
        }
      }
      carry = __shfl_sync(full_mask, carry, 0);
    }
    return fma(beta, carry, q);
  }
};

// FromW: a lower sweep of A0 w (src = w, res = the residual) that also sums eq. (5)'s
// products of w.
template <bool Upper, int G, bool FromW, bool Wide>
__global__ void __launch_bounds__(Wide ? max_sweep_threads : narrow_sweep_threads)
    pipelined_sweep(SplitView s, SweepRange r, const double* __restrict__ src,
                    const double* __restrict__ res, double* out, double omega, int* ticket_counter,
                    double* handoff, double* partials, int tiles_x) {
  extern __shared__ double cache[];  // [2][block_z][block_x], double-buffered by step parity
  __shared__ int ticket;
  const int bx = blockDim.x, bz = blockDim.y;
  const int tx = threadIdx.x, tz = threadIdx.y, tid = tz * bx + tx;
  if (tid == 0) ticket = atomicAdd(ticket_counter, 1);
  __syncthreads();
  const int tile = ticket;
  const int tile_x = tile % tiles_x, tile_z = tile / tiles_x;
  const int groups = bx / G, g = tx / G, lane = tx % G;
  const index_t il = index_t(tile_x) * bx + tx, kl = index_t(tile_z) * bz + tz;
  const index_t n2 = r.own.hi[1] - r.own.lo[1];
  const bool node_in = il < r.i1 - r.i0 && kl < r.own.hi[2] - r.own.lo[2];
  const int steps = int(n2) + groups - 1 + bz - 1;
  const index_t dir = Upper ? -1 : 1;  // physical offset of the logical x-1 neighbour is -dir
  // Whether the range has nodes before it in the sweep's direction, along x (the fragment
  // before), y and z (ghost planes): their values are read where one rank's grid edge
  // gives 0. A ghost plane on the grid's boundary holds 0 and couples by 0.
  const bool x_before = Upper ? r.i1 < r.own.hi[0] : r.i0 > r.own.lo[0];
  const bool y_before = Upper ? r.own.hi[1] < s.n2 : r.own.lo[1] > 0;
  const bool z_before = Upper ? r.own.hi[2] < s.n3 : r.own.lo[2] > 0;

  // This thread's hand-off slots (-1: none): the ones it reads, of the tile below (row 0)
  // and of the tile before along x (lane 0 of a block's first group); the ones it writes,
  // for the tile above (the last row) and the tile after (the last thread of a row).
  const Slots slots(r, bx, bz);
  const index_t z_in = tz == 0 && kl > 0 ? slots.z_first(il, kl) : -1,
                z_out = tz == bz - 1 && kl + 1 < slots.nk ? slots.z_first(il, kl + 1) : -1,
                x_in = tx == 0 && il > 0 ? slots.x_first(il, kl) : -1,
                x_out = tx == bx - 1 && il + 1 < slots.ni ? slots.x_first(il + 1, kl) : -1;

  double prev = 0.0, dot = 0.0;
  ProductSums w_sums;  // FromW
  auto active_at = [&](int t) {
    const int jl = t - g - tz;
    return node_in && jl >= 0 && jl < n2;
  };
  const Column col = column<Upper>(s, r, il, kl);
  // Step t's inputs are loaded at step t - ahead. With ahead = 2 its factors, with the scan's
  // products of beta, are formed at the end of step t - 1 from loads a step old: their
  // arithmetic (a division, five rounds of shuffles) no longer lies between a step's hand-off
  // reads and its result. The sweep of A0 w loads too much for two sets of inputs in
  // registers, and so do blocks over narrow_sweep_threads (64 registers a thread): ahead = 1,
  // the factors formed at the start of the step, after the barrier that gave the loads time,
  // and the products of beta scanned beside the values.
  constexpr int ahead = FromW || Wide ? 1 : 2;
  auto load = [&](int t, NodeInputs& in) {
    if (active_at(t)) in = load_inputs<Upper, FromW>(s, col, src, res, t - g - tz);
  };
  // What a step takes of its own node, worked out before its hand-off reads (zero where it has
  // no node: lanes past the grid, all above the real ones, carry the map 0).
  auto factors = [&](int t, NodeInputs& in) {
    double source = Upper ? in.c0 * in.source : in.source;
    const bool active = active_at(t);
    if constexpr (FromW) {
      if (active) {
        in.w.lower_c[0] = in.cx;
        in.w.lower_c[1] = in.cy;
        in.w.lower_c[2] = in.cz;
        const NodeProducts p = symmetric_products(in.c0, in.wm, in.w);
        source = p.a0;
        w_sums.add(in.c0, in.wm, p, in.res);
      }
    }
    return ScanFactors<G, ahead == 2>(
        active ? sweep_factors(in.c0, source, in.cx, in.cy, in.cz, omega) : SweepFactors{}, in.c0,
        lane);
  };

  NodeInputs even, odd;  // the inputs of the even and of the odd steps (ahead = 2)
  load(0, even);
  ScanFactors<G, ahead == 2> f;
  if constexpr (ahead == 2) {
    f = factors(0, even);
    load(1, odd);
  }

  auto step = [&](int t, NodeInputs& fill, NodeInputs& use) {
    // One barrier per step: the cache is double-buffered by step parity, so it only has
    // to separate step t - 1 (all its writes) from step t.
    __syncthreads();
    const int jl = t - g - tz;
    const bool active = active_at(t);
    const double* prev_cache = cache + ((t + 1) & 1) * bx * bz;
    double* this_cache = cache + (t & 1) * bx * bz;
    const index_t m = col.m0 + jl * col.line_step;
    if constexpr (ahead == 1) f = factors(t, use);

    double y_z = 0.0, y_y = 0.0, carry = 0.0;
    if (active) {
      // Inside the range the node below is another block's (tz = 0): its hand-off slot, which
      // may still be waiting; before it (a ghost plane) it was written before the launch.
      if (tz > 0)
        y_z = prev_cache[(tz - 1) * bx + tx];
      else if (z_in >= 0)
        y_z = take(handoff + z_in + jl * slots.ni);
      else if (r.peers.in[2])
        y_z = take<From::OtherGpu>(r.peers.in[2] + jl * slots.ni + il);
      else if (z_before)
        y_z = __ldcg(out + m - dir * col.plane);
      if (jl > 0)
        y_y = prev;
      else if (r.peers.in[1])
        y_y = take<From::OtherGpu>(r.peers.in[1] + kl * slots.ni + il);
      else if (y_before)
        y_y = out[m - col.line_step];
      const int first_tx = g * G;
      // The group's carry-in is lane 0's (the scan below broadcasts it): the node before the
      // group, in this block, in the block before along x (its hand-off slot), or in the
      // fragment before.
      if (first_tx > 0)
        carry = prev_cache[tz * bx + first_tx - 1];
      else if (x_in >= 0)
        carry = take(handoff + x_in + jl);
      else if (lane == 0 && r.peers.in[0])
        carry = take<From::OtherGpu>(r.peers.in[0] + kl * slots.nj + jl);
      else if (lane == 0 && x_before)
        carry = __ldcg(out + m - dir);
    }
    // Step t + ahead's loads are issued only now: queued before the hand-off reads above, they
    // delayed them, and those are on the sweep's critical path.
    load(t + ahead, fill);
    const double y = f.solve(sweep_node(f.node, y_y, y_z), carry, lane);
    if (active) {
      out[m] = y;
      if (z_out >= 0) publish(handoff + z_out + jl * slots.ni, y);
      if (x_out >= 0) publish(handoff + x_out + jl, y);
      if (r.peers.out[2] && kl + 1 == slots.nk)
        publish<From::OtherGpu>(r.peers.out[2] + jl * slots.ni + il, y);
      if (r.peers.out[1] && jl + 1 == n2)
        publish<From::OtherGpu>(r.peers.out[1] + kl * slots.ni + il, y);
      if (r.peers.out[0] && il + 1 == slots.ni)
        publish<From::OtherGpu>(r.peers.out[0] + kl * slots.nj + jl, y);
      prev = y;
      dot += f.c0 * y * y;
    }
    this_cache[tz * bx + tx] = y;
    if constexpr (ahead == 2) f = factors(t + 1, use);
  };
  // Unrolled by two so that the two sets of inputs keep their registers (a copy from one to
  // the other would wait for the loads in flight).
  if constexpr (ahead == 2) {
    for (int t = 0; t < steps; t += 2) {
      step(t, even, odd);
      if (t + 1 < steps) step(t + 1, odd, even);
    }
  } else {
    for (int t = 0; t < steps; ++t) step(t, even, even);
  }
  if (partials) {
    // The tile's sums, one after another: FromW's products of w in eq. (5)'s order, then
    // (D y, y).
    constexpr int count = FromW ? 5 : 1;
    const double values[5] = {w_sums.d_v_v, w_sums.r2_v, w_sums.a0_v_v, w_sums.r_v, dot};
    const int n = bx * bz;
    for (int q = 0; q < count; ++q) {
      __syncthreads();  // the cache's last reads are done
      cache[tid] = values[FromW ? q : 4];
      __syncthreads();
      int width = 1;
      while (width < n) width <<= 1;
      for (width >>= 1; width > 0; width >>= 1) {
        if (tid < width && tid + width < n) cache[tid] += cache[tid + width];
        __syncthreads();
      }
      if (tid == 0) partials[tile * count + q] = cache[0];
    }
  }
}

void check_shape(const SweepShape& shape) {
  if (shape.block_x < 1 || shape.block_z < 1 || shape.block_x * shape.block_z > max_sweep_threads)
    throw SolverError("matm-cuda: block_x * block_z must be between 1 and " +
                      std::to_string(max_sweep_threads));
  if (!shape.paper && shape.block_x % 32 != 0)
    throw SolverError("matm-cuda: block_x must be a multiple of 32 unless sweep = \"paper\"");
}

int tiles_along_x(const SweepRange& r, const SweepShape& shape) {
  return int((r.i1 - r.i0 + shape.block_x - 1) / shape.block_x);
}

template <bool Upper, bool FromW = false>
void launch(const SplitView& s, const SweepRange& r, const double* src, const double* res,
            double* out, double omega, const SweepShape& shape, int* ticket_counter,
            double* handoff, double* partials) {
  check_shape(shape);
  const int tiles_x = tiles_along_x(r, shape);
  const int tiles = sweep_tiles(r, shape);
  // A rank given no block has nothing to sweep, and a launch of no blocks is refused ("invalid
  // argument"); its partial sums stay uncounted (the reduction takes `tiles` of them).
  if (tiles == 0) return;
  check(cudaMemsetAsync(ticket_counter, 0, sizeof(int)), "cudaMemsetAsync (sweep tickets)");
  const dim3 block(shape.block_x, shape.block_z);
  const std::size_t shared = 2 * sizeof(double) * shape.block_x * shape.block_z;
  auto run = [&](auto kernel) {
    kernel<<<tiles, block, shared>>>(s, r, src, res, out, omega, ticket_counter, handoff, partials,
                                     tiles_x);
  };
  // Blocks over narrow_sweep_threads take the build for 1024 threads; the sweep of A0 w never
  // has them (product_in_sweep), so it has no such build.
  const bool wide = !FromW && shape.block_x * shape.block_z > narrow_sweep_threads;
  if (shape.paper)
    wide ? run(pipelined_sweep<Upper, 1, FromW, !FromW>)
         : run(pipelined_sweep<Upper, 1, FromW, false>);
  else
    wide ? run(pipelined_sweep<Upper, 32, FromW, !FromW>)
         : run(pipelined_sweep<Upper, 32, FromW, false>);
  check_launch(Upper ? "upper sweep" : "lower sweep");
}

}  // namespace

SweepShape resolved(SweepShape shape, index_t nx) {
  if (shape.block_x == 0) {
    index_t bx = std::min<index_t>(256, (std::max<index_t>(nx, 1) + 31) / 32 * 32);
    if (shape.block_z > 0)
      bx = std::min<index_t>(bx, std::max(32, narrow_sweep_threads / shape.block_z / 32 * 32));
    shape.block_x = static_cast<int>(bx);
  }
  if (shape.block_z == 0) shape.block_z = std::max(1, narrow_sweep_threads / shape.block_x);
  return shape;
}

std::size_t sweep_handoff_slots(const SweepRange& r, const SweepShape& shape) {
  // An empty range (a rank given no block) is never launched and has no slots; Slots would
  // count (nk - 1) / bz < 0 of them for bz = 1.
  if (sweep_tiles(r, shape) == 0) return 0;
  return static_cast<std::size_t>(Slots(r, shape.block_x, shape.block_z).count());
}

void arm_handoff(double* handoff, std::size_t slots) {
  if (slots == 0) return;
  arm_kernel<<<256, 256>>>(handoff, slots);
  check_launch("arming of the sweep hand-off slots");
}

int sweep_tiles(const SweepRange& r, const SweepShape& shape) {
  return tiles_along_x(r, shape) *
         int((r.own.hi[2] - r.own.lo[2] + shape.block_z - 1) / shape.block_z);
}

void lower_sweep(const SplitView& s, const SweepRange& r, const double* src, double* y,
                 double omega, const SweepShape& shape, int* ticket_counter, double* handoff,
                 double* partials) {
  launch<false>(s, r, src, nullptr, y, omega, shape, ticket_counter, handoff, partials);
}

bool product_in_sweep(bool self_adjoint, const SweepShape& shape) {
  return self_adjoint && shape.block_x * shape.block_z <= narrow_sweep_threads;
}

void upper_sweep(const SplitView& s, const SweepRange& r, const double* y, double* v, double omega,
                 const SweepShape& shape, int* ticket_counter, double* handoff) {
  launch<true>(s, r, y, nullptr, v, omega, shape, ticket_counter, handoff, nullptr);
}

void lower_sweep_of_product(const SplitView& s, const SweepRange& r, const double* w,
                            const double* res, double* y, double omega, const SweepShape& shape,
                            int* ticket_counter, double* handoff, double* partials) {
  launch<false, true>(s, r, w, res, y, omega, shape, ticket_counter, handoff, partials);
}

}  // namespace solvent::matm::cuda
