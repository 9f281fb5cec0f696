// Conjugated dot products, several at once: one pass over x gives <x, y_k> for up to
// eight y_k per launch (BiCGSTAB(l)'s Gram columns, BiCGSTAB's fused pairs). Each block
// writes one partial sum per product, a second kernel adds the partials in a fixed
// order (no atomics: the result does not change from run to run), and one copy brings
// the scalars back.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

#include <algorithm>

namespace solvent::krylov::device {
namespace {

constexpr int per_launch = 8;
constexpr int warps_per_block = block_size / 32;

template <class Z>
struct Targets {
  const Z* y[per_launch];
};

// Sum of v over the block, valid in thread 0. `scratch` holds one value per warp.
template <class Z>
__device__ Z block_sum(Z v, Z* scratch) {
  for (int offset = 16; offset > 0; offset /= 2) v = v + shuffle_down(v, offset, 32);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();  // scratch may still be read from the previous call
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  v = threadIdx.x < warps_per_block ? scratch[threadIdx.x] : Z(0);
  if (warp == 0)
    for (int offset = warps_per_block / 2; offset > 0; offset /= 2)
      v = v + shuffle_down(v, offset, 32);
  return v;
}

template <class Z, int K>
__global__ void dots_partial_kernel(std::int64_t n, const Z* __restrict__ x, Targets<Z> t,
                                    Z* __restrict__ partial) {
  __shared__ Z scratch[warps_per_block];
  Z acc[K];
#pragma unroll
  for (int k = 0; k < K; ++k) acc[k] = Z(0);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
    const Z xi = x[i];
#pragma unroll
    for (int k = 0; k < K; ++k) acc[k] = conj_mul_add(xi, t.y[k][i], acc[k]);
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const Z s = block_sum(acc[k], scratch);
    if (threadIdx.x == 0) partial[k * gridDim.x + blockIdx.x] = s;
  }
}

// One block per product: out[k] = sum over blocks of partial[k][.].
template <class Z>
__global__ void dots_final_kernel(int blocks, const Z* __restrict__ partial, Z* __restrict__ out) {
  __shared__ Z scratch[warps_per_block];
  Z acc = Z(0);
  for (int b = threadIdx.x; b < blocks; b += blockDim.x)
    acc = acc + partial[blockIdx.x * blocks + b];
  acc = block_sum(acc, scratch);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

int max_partial_blocks() {
  static const int limit = [] {
    int device = 0, sms = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device),
          "cudaDeviceGetAttribute");
    return 8 * sms;  // enough resident warps to keep the memory system busy
  }();
  return limit;
}

int partial_blocks(std::int64_t n) {
  return static_cast<int>(
      std::clamp<std::int64_t>((n + block_size - 1) / block_size, 1, max_partial_blocks()));
}

template <class Z, int K>
void launch_partial(unsigned blocks, std::int64_t n, const Z* x, const Z* const* ys, Z* partial) {
  Targets<Z> t{};
  for (int k = 0; k < K; ++k) t.y[k] = ys[k];
  dots_partial_kernel<Z, K><<<blocks, block_size>>>(n, x, t, partial);
}

template <class Z>
void launch_partial_any(int count, unsigned blocks, std::int64_t n, const Z* x, const Z* const* ys,
                        Z* partial) {
  switch (count) {
    case 1:
      return launch_partial<Z, 1>(blocks, n, x, ys, partial);
    case 2:
      return launch_partial<Z, 2>(blocks, n, x, ys, partial);
    case 3:
      return launch_partial<Z, 3>(blocks, n, x, ys, partial);
    case 4:
      return launch_partial<Z, 4>(blocks, n, x, ys, partial);
    case 5:
      return launch_partial<Z, 5>(blocks, n, x, ys, partial);
    case 6:
      return launch_partial<Z, 6>(blocks, n, x, ys, partial);
    case 7:
      return launch_partial<Z, 7>(blocks, n, x, ys, partial);
    default:
      return launch_partial<Z, 8>(blocks, n, x, ys, partial);
  }
}

}  // namespace

std::size_t dots_workspace(int count) {
  // partials (count x blocks) followed by the count results
  return static_cast<std::size_t>(count) * (static_cast<std::size_t>(max_partial_blocks()) + 1);
}

template <class T>
void dots(std::int64_t n, const T* x, const T* const* ys, int count, T* workspace, T* host_out) {
  using Z = device_t<T>;
  if (count < 1 || count > max_dots) throw SolverError("dots: between 1 and 17 products per call");
  const int blocks = partial_blocks(n);
  Z* partial = to_device(workspace);
  Z* results = partial + static_cast<std::size_t>(count) * blocks;
  const Z* dys[max_dots];
  for (int k = 0; k < count; ++k) dys[k] = to_device(ys[k]);
  for (int first = 0; first < count; first += per_launch) {
    const int chunk = std::min(per_launch, count - first);
    launch_partial_any<Z>(chunk, blocks, n, to_device(x), dys + first,
                          partial + static_cast<std::size_t>(first) * blocks);
    check_launch("dots_partial");
  }
  dots_final_kernel<Z><<<count, block_size>>>(blocks, partial, results);
  check_launch("dots_final");
  check(cudaMemcpy(host_out, results, count * sizeof(Z), cudaMemcpyDeviceToHost),
        "cudaMemcpy of dot products");
}

template void dots<double>(std::int64_t, const double*, const double* const*, int, double*,
                           double*);
template void dots<complex>(std::int64_t, const complex*, const complex* const*, int, complex*,
                            complex*);

}  // namespace solvent::krylov::device
