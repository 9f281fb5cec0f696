// The non-recursive vector work of a MATM iteration: the residual (with the previous
// step x - tau w fused in), the products with A0 and A1, and inner products. Each block
// walks whole grid lines (coalesced along x) and leaves one partial sum per quantity;
// reduce_partials adds them in a fixed order, so results do not depend on timing. Only the
// lines of the own box are walked (over ranks, the ghost layer is read, never written).
#include "cuda/kernels.hpp"

#include <solvent_matm/split_operator.hpp>

namespace solvent::matm::cuda {
namespace {

constexpr int threads_per_block = 256;
constexpr int max_blocks = 1024;

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

__global__ void residual_kernel(SplitView s, Box own, const double* __restrict__ x,
                                const double* __restrict__ w, double tau,
                                double* __restrict__ x_out, const double* __restrict__ f,
                                double* __restrict__ r, double* partials) {
  double rr[1] = {0.0};
  const UpdatedValues updated{x, w, tau};
  const Lines lines(own);
  for (index_t line = blockIdx.x; line < lines.count; line += gridDim.x) {
    const index_t j = lines.j(line), k = lines.k(line);
    for (index_t i = own.lo[0] + threadIdx.x; i < own.hi[0]; i += blockDim.x) {
      const index_t m = s.index(i, j, k);
      if (s.c0[m] == 0.0) {
        if (x_out) x_out[m] = 0.0;
        r[m] = 0.0;
        continue;
      }
      const NodeProducts p = apply_node(s, updated, i, j, k);
      if (x_out) x_out[m] = updated(m);
      r[m] = p.a0 + p.a1 - f[m];
      rr[0] += r[m] * r[m];
    }
  }
  block_partials(rr, partials);
}

__global__ void update_kernel(SplitView s, Box own, double* x, const double* __restrict__ w,
                              double tau) {
  const UpdatedValues updated{x, w, tau};
  const Lines lines(own);
  for (index_t line = blockIdx.x; line < lines.count; line += gridDim.x) {
    const index_t j = lines.j(line), k = lines.k(line);
    for (index_t i = own.lo[0] + threadIdx.x; i < own.hi[0]; i += blockDim.x) {
      const index_t m = s.index(i, j, k);
      // Each thread reads and writes its own node only, so the step may be in place.
      x[m] = s.c0[m] == 0.0 ? 0.0 : updated(m);
    }
  }
}

__global__ void apply_kernel(SplitView s, Box own, const double* __restrict__ v,
                             const double* __restrict__ r, double* __restrict__ z0,
                             double* __restrict__ z1, double* partials) {
  ProductSums sums;
  const Lines lines(own);
  for (index_t line = blockIdx.x; line < lines.count; line += gridDim.x) {
    const index_t j = lines.j(line), k = lines.k(line);
    for (index_t i = own.lo[0] + threadIdx.x; i < own.hi[0]; i += blockDim.x) {
      const index_t m = s.index(i, j, k);
      const NodeProducts p = apply_node(s, Values{v}, i, j, k);
      z0[m] = p.a0;
      if (z1) z1[m] = p.a1;
      sums.add(s.c0[m], v[m], p, r[m]);
    }
  }
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

}  // namespace

int grid_blocks(const Box& own) {
  const index_t lines = Lines(own).count;
  return int(lines < max_blocks ? lines : max_blocks);
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
