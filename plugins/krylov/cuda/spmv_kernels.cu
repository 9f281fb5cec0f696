// Sparse matrix-vector products. CSR: a group of G threads per row (G a power of two up
// to a warp) reads the row's entries side by side, so a warp's loads of values and
// column indices are contiguous, then the group adds its partial sums with shuffles.
// The row formula itself is csr_row_partial in scalar_math.hpp, shared with the CPU; a
// distributed matrix's rank computes chosen rows, its ghost columns read from their own
// buffer.
// Stencil7: one thread per node, stencil7_row; on a distributed stencil's block, the faces
// packed for the halo exchange, and the rows next to them recomputed with what it brought.
#include <solvent_krylov/device_kernels.hpp>

#include "cuda/cuda_support.cuh"

#include <solvent/grid/block_faces.hpp>

#include <cmath>
#include <string>
#include <type_traits>

namespace solvent::krylov::device {
namespace {

// Row rows[k] of A times x by the k-th group of G threads (rows: nullptr for row k itself).
template <class Z, int G, class Column>
__global__ void csr_spmv_kernel(std::int64_t count, const std::int32_t* __restrict__ rows,
                                const std::int32_t* __restrict__ row_ptr,
                                const std::int32_t* __restrict__ col_idx,
                                const Z* __restrict__ values, Column x, Z* __restrict__ y) {
  const std::int64_t thread = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  const std::int64_t k = thread / G;
  const int lane = static_cast<int>(thread % G);
  const std::int64_t row = k < count && rows ? rows[k] : k;
  // Threads past the last row still take part in the shuffles (full-warp masks).
  Z sum = k < count ? csr_row_partial(row_ptr, col_idx, values, x, row, lane, G) : Z(0);
  if constexpr (G > 1)
    for (int offset = G / 2; offset > 0; offset /= 2) sum = sum + shuffle_down(sum, offset, G);
  if (lane == 0 && k < count) y[row] = sum;
}

template <class Z>
__global__ void stencil7_spmv_kernel(Stencil7View<Z> a, const Z* __restrict__ x,
                                     Z* __restrict__ y) {
  const std::int64_t m = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (m < a.n1 * a.n2 * a.n3) y[m] = stencil7_row(a, x, m);
}

// One thread per node of face `face`: its value into the packed buffer.
template <class Z>
__global__ void pack_face_kernel(std::int64_t n1, std::int64_t n2, std::int64_t n3, int face,
                                 std::int64_t nodes, const Z* __restrict__ x, Z* __restrict__ out) {
  const std::int64_t q = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (q >= nodes) return;
  const std::int64_t e[3] = {n1, n2, n3};
  std::int64_t i[3];
  face_node(e, face, q, 0, i);
  out[q] = x[i[0] + n1 * (i[1] + n2 * i[2])];
}

// One thread per node of face `face`, one launch per face: an edge node lies next to two
// faces (both compute the same row, but not at once).
template <class Z>
__global__ void face_row_kernel(Stencil7View<Z> a, FaceOffsets faces, int face,
                                const Z* __restrict__ x, const Z* __restrict__ ghosts,
                                Z* __restrict__ y) {
  const std::int64_t q = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (q >= faces.at[face + 1] - faces.at[face]) return;
  std::int64_t m = 0;
  const Z row = stencil7_face_row(a, faces, x, ghosts, face, q, m);
  y[m] = row;
}

// The same arrays, typed as the kernels' scalars.
template <class T>
Stencil7View<device_t<T>> device_view(const Stencil7View<T>& a) {
  Stencil7View<device_t<T>> d{};
  for (int k = 0; k < 7; ++k) d.c[k] = to_device(a.c[k]);
  d.n1 = a.n1, d.n2 = a.n2, d.n3 = a.n3;
  return d;
}

template <class Z, class Column>
void launch_csr(std::int64_t count, const std::int32_t* rows, const std::int32_t* rp,
                const std::int32_t* ci, const Z* v, Column x, Z* y, int group, const char* name) {
  if (count == 0) return;
  const auto launch = [&](auto g) {
    constexpr int G = decltype(g)::value;
    csr_spmv_kernel<Z, G><<<blocks_for(count * G), block_size>>>(count, rows, rp, ci, v, x, y);
  };
  switch (group) {
    case 1:
      launch(std::integral_constant<int, 1>{});
      break;
    case 2:
      launch(std::integral_constant<int, 2>{});
      break;
    case 4:
      launch(std::integral_constant<int, 4>{});
      break;
    case 8:
      launch(std::integral_constant<int, 8>{});
      break;
    case 16:
      launch(std::integral_constant<int, 16>{});
      break;
    case 32:
      launch(std::integral_constant<int, 32>{});
      break;
    default:
      throw SolverError(std::string(name) + ": the thread group must be 1, 2, 4, 8, 16 or 32");
  }
  check_launch(name);
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
  using Z = device_t<T>;
  launch_csr<Z>(rows, nullptr, row_ptr, col_idx, to_device(values), Columns<Z>{to_device(x)},
                to_device(y), group, "csr_spmv");
}

template <class T>
void csr_spmv_rows(std::int64_t count, const std::int32_t* rows, const std::int32_t* row_ptr,
                   const std::int32_t* col_idx, const T* values, const T* x, std::int32_t local,
                   const T* ghosts, T* y, int group) {
  using Z = device_t<T>;
  launch_csr<Z>(count, rows, row_ptr, col_idx, to_device(values),
                SplitColumns<Z>{to_device(x), to_device(ghosts), local}, to_device(y), group,
                "csr_spmv_rows");
}

template <class T>
void stencil7_spmv(const Stencil7View<T>& a, const T* x, T* y) {
  const std::int64_t n = a.n1 * a.n2 * a.n3;
  if (n == 0) return;
  stencil7_spmv_kernel<<<blocks_for(n), block_size>>>(device_view(a), to_device(x), to_device(y));
  check_launch("stencil7_spmv");
}

template <class T>
void pack_faces(const Stencil7View<T>& a, const FaceOffsets& faces, const T* x, T* send) {
  for (int f = 0; f < 6; ++f) {
    const std::int64_t nodes = faces.at[f + 1] - faces.at[f];
    if (nodes == 0) continue;
    pack_face_kernel<<<blocks_for(nodes), block_size>>>(a.n1, a.n2, a.n3, f, nodes, to_device(x),
                                                        to_device(send) + faces.at[f]);
    check_launch("pack_faces");
  }
}

template <class T>
void face_rows(const Stencil7View<T>& a, const FaceOffsets& faces, const T* x, const T* ghosts,
               T* y) {
  for (int f = 0; f < 6; ++f) {
    const std::int64_t nodes = faces.at[f + 1] - faces.at[f];
    if (nodes == 0) continue;
    face_row_kernel<<<blocks_for(nodes), block_size>>>(device_view(a), faces, f, to_device(x),
                                                       to_device(ghosts), to_device(y));
    check_launch("face_rows");
  }
}

template void csr_spmv<double>(std::int64_t, const std::int32_t*, const std::int32_t*,
                               const double*, const double*, double*, int);
template void csr_spmv<complex>(std::int64_t, const std::int32_t*, const std::int32_t*,
                                const complex*, const complex*, complex*, int);
template void csr_spmv_rows<double>(std::int64_t, const std::int32_t*, const std::int32_t*,
                                    const std::int32_t*, const double*, const double*, std::int32_t,
                                    const double*, double*, int);
template void csr_spmv_rows<complex>(std::int64_t, const std::int32_t*, const std::int32_t*,
                                     const std::int32_t*, const complex*, const complex*,
                                     std::int32_t, const complex*, complex*, int);
template void stencil7_spmv<double>(const Stencil7View<double>&, const double*, double*);
template void stencil7_spmv<complex>(const Stencil7View<complex>&, const complex*, complex*);
template void pack_faces<double>(const Stencil7View<double>&, const FaceOffsets&, const double*,
                                 double*);
template void pack_faces<complex>(const Stencil7View<complex>&, const FaceOffsets&, const complex*,
                                  complex*);
template void face_rows<double>(const Stencil7View<double>&, const FaceOffsets&, const double*,
                                const double*, double*);
template void face_rows<complex>(const Stencil7View<complex>&, const FaceOffsets&, const complex*,
                                 const complex*, complex*);
}  // namespace solvent::krylov::device
