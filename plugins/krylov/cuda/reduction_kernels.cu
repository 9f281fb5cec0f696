// Conjugated dot products, several at once: one pass gives <x_k, y_k> for up to eight
// pairs per launch (BiCGSTAB(l)'s Gram matrix, BiCGSTAB's fused pairs), and one call
// launches as many as it needs before its one copy back (a round trip from the GPU, and
// over ranks one sum, for a whole batch). Each block writes one partial sum per product, a
// second kernel adds the partials in a fixed order (no atomics: the result does not change
// from run to run); a pair's bits do not depend on the others in its call.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

#include <solvent/numerics/exact_sum.hpp>

#include <algorithm>
#include <string>
#include <type_traits>

namespace solvent::krylov::device {
namespace {

constexpr int per_launch = 8;
constexpr int warps_per_block = block_size / 32;

template <class Z>
struct Targets {
  const Z* x[per_launch];
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
__global__ void dots_partial_kernel(std::int64_t n, Targets<Z> t, Z* __restrict__ partial) {
  __shared__ Z scratch[warps_per_block];
  Z acc[K];
#pragma unroll
  for (int k = 0; k < K; ++k) acc[k] = Z(0);
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += stride) {
#pragma unroll
    for (int k = 0; k < K; ++k) acc[k] = conj_mul_add(t.x[k][i], t.y[k][i], acc[k]);
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
void launch_partial(unsigned blocks, std::int64_t n, const Z* const* xs, const Z* const* ys,
                    Z* partial) {
  Targets<Z> t{};
  for (int k = 0; k < K; ++k) t.x[k] = xs[k], t.y[k] = ys[k];
  dots_partial_kernel<Z, K><<<blocks, block_size>>>(n, t, partial);
}

template <class Z>
void launch_partial_any(int count, unsigned blocks, std::int64_t n, const Z* const* xs,
                        const Z* const* ys, Z* partial) {
  switch (count) {
    case 1:
      return launch_partial<Z, 1>(blocks, n, xs, ys, partial);
    case 2:
      return launch_partial<Z, 2>(blocks, n, xs, ys, partial);
    case 3:
      return launch_partial<Z, 3>(blocks, n, xs, ys, partial);
    case 4:
      return launch_partial<Z, 4>(blocks, n, xs, ys, partial);
    case 5:
      return launch_partial<Z, 5>(blocks, n, xs, ys, partial);
    case 6:
      return launch_partial<Z, 6>(blocks, n, xs, ys, partial);
    case 7:
      return launch_partial<Z, 7>(blocks, n, xs, ys, partial);
    default:
      return launch_partial<Z, 8>(blocks, n, xs, ys, partial);
  }
}

// Line dot products (seven-point stencils): one warp per line of `line` values at a time,
// each lane adding its strided values in order and the warp its lanes by a fixed tree, so a
// line's sum depends on the line alone; the line sums go into exact digits (integer atomics,
// exact in any order), first the block's in shared memory, then the device's. The result
// is the same for any number of blocks, GPUs and ranks holding whole lines.
template <class Z, int K>
__global__ void line_dots_kernel(std::int64_t lines, std::int64_t line, Targets<Z> t,
                                 unsigned long long* __restrict__ digits,
                                 double* __restrict__ nonfinite) {
  constexpr int parts = std::is_same_v<Z, double> ? 1 : 2;
  constexpr int width = ExactSum::digit_count;
  __shared__ unsigned long long acc[K * parts * width];
  for (int i = threadIdx.x; i < K * parts * width; i += blockDim.x) acc[i] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const std::int64_t warps = static_cast<std::int64_t>(gridDim.x) * warps_per_block;
  for (std::int64_t l = blockIdx.x * static_cast<std::int64_t>(warps_per_block) + threadIdx.x / 32;
       l < lines; l += warps) {
    Z sum[K];
#pragma unroll
    for (int k = 0; k < K; ++k) sum[k] = Z(0);
    for (std::int64_t i = l * line + lane; i < (l + 1) * line; i += 32) {
#pragma unroll
      for (int k = 0; k < K; ++k) sum[k] = conj_mul_add(t.x[k][i], t.y[k][i], sum[k]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      for (int offset = 16; offset > 0; offset /= 2)
        sum[k] = sum[k] + shuffle_down(sum[k], offset, 32);
      if (lane != 0) continue;
      for (int p = 0; p < parts; ++p) {
        double v;
        if constexpr (parts == 1)
          v = sum[k];
        else
          v = p == 0 ? sum[k].real() : sum[k].imag();
        int d = 0;
        std::int64_t pieces[3] = {};
        if (!exact_sum_parts(v, d, pieces)) {
          atomicAdd(&nonfinite[k * parts + p], v);
          continue;
        }
        for (int j = 0; j < 3; ++j)
          if (pieces[j] != 0)
            atomicAdd(&acc[(k * parts + p) * width + d + j],
                      static_cast<unsigned long long>(pieces[j]));
      }
    }
  }
  __syncthreads();
  // Two's complement: the unsigned additions wrap to the signed sums.
  for (int i = threadIdx.x; i < K * parts * width; i += blockDim.x)
    if (acc[i] != 0) atomicAdd(&digits[i], acc[i]);
}

template <class Z, int K>
void launch_lines(unsigned blocks, std::int64_t lines, std::int64_t line, const Z* const* xs,
                  const Z* const* ys, unsigned long long* digits, double* nonfinite) {
  Targets<Z> t{};
  for (int k = 0; k < K; ++k) t.x[k] = xs[k], t.y[k] = ys[k];
  line_dots_kernel<Z, K><<<blocks, block_size>>>(lines, line, t, digits, nonfinite);
}

template <class Z>
void launch_lines_any(int count, unsigned blocks, std::int64_t lines, std::int64_t line,
                      const Z* const* xs, const Z* const* ys, unsigned long long* digits,
                      double* nonfinite) {
  switch (count) {
    case 1:
      return launch_lines<Z, 1>(blocks, lines, line, xs, ys, digits, nonfinite);
    case 2:
      return launch_lines<Z, 2>(blocks, lines, line, xs, ys, digits, nonfinite);
    case 3:
      return launch_lines<Z, 3>(blocks, lines, line, xs, ys, digits, nonfinite);
    default:
      return launch_lines<Z, 4>(blocks, lines, line, xs, ys, digits, nonfinite);
  }
}

}  // namespace

std::size_t dots_workspace(int count) {
  // partials (count x blocks) followed by the count results
  return static_cast<std::size_t>(count) * (static_cast<std::size_t>(max_partial_blocks()) + 1);
}

template <class T>
void dots(std::int64_t n, const T* const* xs, const T* const* ys, int count, T* workspace,
          T* host_out) {
  using Z = device_t<T>;
  if (count < 1 || count > max_dots)
    throw SolverError("dots: between 1 and " + std::to_string(max_dots) + " products per call");
  const int blocks = partial_blocks(n);
  Z* partial = to_device(workspace);
  Z* results = partial + static_cast<std::size_t>(count) * blocks;
  const Z* dxs[max_dots];
  const Z* dys[max_dots];
  for (int k = 0; k < count; ++k) dxs[k] = to_device(xs[k]), dys[k] = to_device(ys[k]);
  for (int first = 0; first < count; first += per_launch) {
    const int chunk = std::min(per_launch, count - first);
    launch_partial_any<Z>(chunk, blocks, n, dxs + first, dys + first,
                          partial + static_cast<std::size_t>(first) * blocks);
    check_launch("dots_partial");
  }
  dots_final_kernel<Z><<<count, block_size>>>(blocks, partial, results);
  check_launch("dots_final");
  check(cudaMemcpy(host_out, results, count * sizeof(Z), cudaMemcpyDeviceToHost),
        "cudaMemcpy of dot products");
}

template <class T>
void line_dots(std::int64_t n, std::int64_t line, const T* const* xs, const T* const* ys, int count,
               LineDotsWorkspace& w, std::span<ExactSum> sums) {
  using Z = device_t<T>;
  constexpr int parts = std::is_same_v<T, double> ? 1 : 2;
  constexpr int width = ExactSum::digit_count;
  if (count < 1 || count > max_dots)
    throw SolverError("line_dots: between 1 and " + std::to_string(max_dots) + " products");
  const std::int64_t lines = line > 0 ? n / line : 0;
  const int blocks = static_cast<int>(std::clamp<std::int64_t>(
      (lines + warps_per_block - 1) / warps_per_block, 1, max_partial_blocks()));
  check(cudaMemsetAsync(w.digits, 0, sizeof(std::int64_t) * count * parts * width),
        "cudaMemsetAsync");
  check(cudaMemsetAsync(w.nonfinite, 0, sizeof(double) * count * parts), "cudaMemsetAsync");
  const Z* dxs[max_dots];
  const Z* dys[max_dots];
  for (int k = 0; k < count; ++k) dxs[k] = to_device(xs[k]), dys[k] = to_device(ys[k]);
  // At most four products a launch: their digits fill 4 x 2 x 68 x 8 B of shared memory.
  for (int first = 0; first < count; first += 4) {
    const int chunk = std::min(4, count - first);
    launch_lines_any<Z>(
        chunk, blocks, lines, line, dxs + first, dys + first,
        reinterpret_cast<unsigned long long*>(w.digits) + std::size_t(first) * parts * width,
        w.nonfinite + first * parts);
    check_launch("line_dots");
  }
  check(cudaMemcpy(w.host_digits, w.digits, sizeof(std::int64_t) * count * parts * width,
                   cudaMemcpyDeviceToHost),
        "cudaMemcpy of dot-product digits");
  check(cudaMemcpy(w.host_nonfinite, w.nonfinite, sizeof(double) * count * parts,
                   cudaMemcpyDeviceToHost),
        "cudaMemcpy of dot-product digits");
  for (int q = 0; q < count * parts; ++q)
    sums[q] = ExactSum::from_accumulator(
        std::span<const std::int64_t>(w.host_digits + std::size_t(q) * width, width),
        w.host_nonfinite[q]);
}

template void dots<double>(std::int64_t, const double* const*, const double* const*, int, double*,
                           double*);
template void line_dots<double>(std::int64_t, std::int64_t, const double* const*,
                                const double* const*, int, LineDotsWorkspace&, std::span<ExactSum>);
template void line_dots<complex>(std::int64_t, std::int64_t, const complex* const*,
                                 const complex* const*, int, LineDotsWorkspace&,
                                 std::span<ExactSum>);
template void dots<complex>(std::int64_t, const complex* const*, const complex* const*, int,
                            complex*, complex*);

}  // namespace solvent::krylov::device
