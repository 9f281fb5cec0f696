#pragma once
// Launchers of the CUDA building blocks (vector kernels, conjugated dot products, SpMV),
// callable from plain C++: pointers are device pointers, T is double or
// std::complex<double> (passed to the kernels as cuda::std::complex<double>, which has
// the same layout). Everything runs on the default stream; only dots() synchronises,
// to bring its scalars back. A failed launch throws SolverError naming the kernel.
#include <solvent_krylov/scalar_math.hpp>

#include <solvent/numerics/exact_sum.hpp>

#include <cstddef>
#include <cstdint>
#include <span>

namespace solvent::krylov::device {

template <class T>
void assign(std::int64_t n, const T* x, T* y);  // y = x
template <class T>
void scale(std::int64_t n, T a, T* x);  // x = a x
template <class T>
void axpy(std::int64_t n, T a, const T* x, T* y);  // y += a x
template <class T>
void axpby(std::int64_t n, T a, const T* x, T b, T* y);  // y = a x + b y
template <class T>
void waxpy(std::int64_t n, T a, const T* x, const T* y, T* w);  // w = a x + y
template <class T>
void elementwise_product(std::int64_t n, const T* d, T* x);  // x = d .* x
// The same update of several vectors in one launch (xs, ys: host arrays of device pointers):
template <class T>
void axpy_each(std::int64_t n, T a, const T* const* xs, T* const* ys,
               int count);  // ys[k] += a xs[k]
template <class T>
void axpby_each(std::int64_t n, T a, const T* const* xs, T b, T* const* ys,
                int count);  // ys[k] = a xs[k] + b ys[k]
// y += c[0] xs[0] + ... + c[count - 1] xs[count - 1] (c a host array), the terms added in turn
// with axpy's rounding: the bits of count axpy calls, in one pass over y.
template <class T>
void add_combination(std::int64_t n, const T* c, const T* const* xs, int count, T* y);
template <class T>
void gather(std::int64_t n, const std::int32_t* index, const T* x, T* out);  // out = x[index]

// Most products one dots() call takes: BiCGSTAB(l)'s Gram matrix of r_1..r_l and their
// products with r_0, l (l + 3) / 2 of them, for its largest l = 16.
inline constexpr int max_dots = 152;
// Device scratch, in elements of T, that dots() needs for `count` products.
std::size_t dots_workspace(int count);
// host_out[k] = <xs[k], ys[k]> = sum_i conj(xs[k]_i) ys[k]_i for k < count; xs and ys are host
// arrays of device pointers. Synchronises once.
template <class T>
void dots(std::int64_t n, const T* const* xs, const T* const* ys, int count, T* workspace,
          T* host_out);

// Line dot products of a seven-point stencil's vectors, exact and independent of how the
// lines are spread over blocks, GPUs and ranks: sums[parts k + p] (p: real, imaginary part)
// get <xs[k], ys[k]>, each line of `line` values summed by a warp in a fixed order and the line
// sums added exactly. Scratch in `w` (device and pinned host memory). Synchronises.
struct LineDotsWorkspace {
  std::int64_t* digits;       // device: max_dots x 2 x ExactSum::digit_count
  double* nonfinite;          // device: max_dots x 2
  std::int64_t* host_digits;  // pinned host, as digits
  double* host_nonfinite;     // pinned host, as nonfinite
};
template <class T>
void line_dots(std::int64_t n, std::int64_t line, const T* const* xs, const T* const* ys, int count,
               LineDotsWorkspace& w, std::span<ExactSum> sums);

// y = A x, CSR, one group of `group` threads per row (1, 2, 4, 8, 16 or 32).
template <class T>
void csr_spmv(std::int64_t rows, const std::int32_t* row_ptr, const std::int32_t* col_idx,
              const T* values, const T* x, T* y, int group);
// On a rank of a CSR matrix distributed by rows: y[rows[k]] = row rows[k] of A times x for
// k < count, column c < local read from x, a ghost column from ghosts[c - local]; each row
// the same sum as csr_spmv's.
template <class T>
void csr_spmv_rows(std::int64_t count, const std::int32_t* rows, const std::int32_t* row_ptr,
                   const std::int32_t* col_idx, const T* values, const T* x, std::int32_t local,
                   const T* ghosts, T* y, int group);
// The group size the solvers use for a mean row length: the smallest power of two at
// least half of it (7-point stencil rows: 4, P1 tetrahedra: 8), at most 32.
int csr_group_for(double mean_row_length);

// y = A x for the seven-point stencil (view of device arrays).
template <class T>
void stencil7_spmv(const Stencil7View<T>& a, const T* x, T* y);

// A block of a distributed stencil: send = x at the nodes next to each face, packed.
template <class T>
void pack_faces(const Stencil7View<T>& a, const FaceOffsets& faces, const T* x, T* send);
// The rows of the nodes next to each face recomputed with the neighbours' values across it
// (ghosts, as the exchange received them): after stencil7_spmv on the block, the
// distributed product, each row rounded as on one rank (stencil7_face_row).
template <class T>
void face_rows(const Stencil7View<T>& a, const FaceOffsets& faces, const T* x, const T* ghosts,
               T* y);

}  // namespace solvent::krylov::device
