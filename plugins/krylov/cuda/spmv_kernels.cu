// Sparse matrix-vector products. CSR: a group of G threads per row (G a power of two up
// to a warp) reads the row's entries side by side, so a warp's loads of values and
// column indices are contiguous, then the group adds its partial sums with shuffles.
// The row formula itself is csr_row_partial in scalar_math.hpp, shared with the CPU.
// Stencil7: one thread per node, stencil7_row.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

#include <cmath>

namespace solvent::krylov::device {
namespace {

template <class Z, int G>
__global__ void csr_spmv_kernel(std::int64_t rows, const std::int32_t* __restrict__ row_ptr,
                                const std::int32_t* __restrict__ col_idx,
                                const Z* __restrict__ values, const Z* __restrict__ x,
                                Z* __restrict__ y) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t row = thread / G;
  const int lane = static_cast<int>(thread % G);
  // Threads past the last row still take part in the shuffles (full-warp masks).
  Z sum = row < rows ? csr_row_partial(row_ptr, col_idx, values, x, row, lane, G) : Z(0);
  if constexpr (G > 1)
    for (int offset = G / 2; offset > 0; offset /= 2) sum = sum + shuffle_down(sum, offset, G);
  if (lane == 0 && row < rows) y[row] = sum;
}

template <class Z>
__global__ void stencil7_spmv_kernel(Stencil7View<Z> a, const Z* __restrict__ x,
                                     Z* __restrict__ y) {
  const std::int64_t m = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (m < a.n1 * a.n2 * a.n3) y[m] = stencil7_row(a, x, m);
}

template <class Z, int G>
void launch_csr(std::int64_t rows, const std::int32_t* rp, const std::int32_t* ci, const Z* v,
                const Z* x, Z* y) {
  csr_spmv_kernel<Z, G><<<blocks_for(rows * G), block_size>>>(rows, rp, ci, v, x, y);
}

}  // namespace

int csr_group_for(double mean_row_length) {
  int g = 1;
  while (g < 32 && g < 0.5 * mean_row_length) g *= 2;
  return g;
}

template <class T>
void csr_spmv(std::int64_t rows, const std::int32_t* row_ptr, const std::int32_t* col_idx,
              const T* values, const T* x, T* y, int group) {
  if (rows == 0) return;
  using Z = device_t<T>;
  const Z* v = to_device(values);
  const Z* xd = to_device(x);
  Z* yd = to_device(y);
  switch (group) {
    case 1:
      launch_csr<Z, 1>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    case 2:
      launch_csr<Z, 2>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    case 4:
      launch_csr<Z, 4>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    case 8:
      launch_csr<Z, 8>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    case 16:
      launch_csr<Z, 16>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    case 32:
      launch_csr<Z, 32>(rows, row_ptr, col_idx, v, xd, yd);
      break;
    default:
      throw SolverError("csr_spmv: the thread group must be 1, 2, 4, 8, 16 or 32");
  }
  check_launch("csr_spmv");
}

template <class T>
void stencil7_spmv(const Stencil7View<T>& a, const T* x, T* y) {
  using Z = device_t<T>;
  Stencil7View<Z> d{};
  for (int k = 0; k < 7; ++k) d.c[k] = to_device(a.c[k]);
  d.n1 = a.n1, d.n2 = a.n2, d.n3 = a.n3;
  const std::int64_t n = a.n1 * a.n2 * a.n3;
  if (n == 0) return;
  stencil7_spmv_kernel<Z><<<blocks_for(n), block_size>>>(d, to_device(x), to_device(y));
  check_launch("stencil7_spmv");
}

template void csr_spmv<double>(std::int64_t, const std::int32_t*, const std::int32_t*,
                               const double*, const double*, double*, int);
template void csr_spmv<complex>(std::int64_t, const std::int32_t*, const std::int32_t*,
                                const complex*, const complex*, complex*, int);
template void stencil7_spmv<double>(const Stencil7View<double>&, const double*, double*);
template void stencil7_spmv<complex>(const Stencil7View<complex>&, const complex*, complex*);

}  // namespace solvent::krylov::device
