#pragma once
// The CPU building blocks of the Krylov solvers (the operations timed in Cheik Ahamed and Magoules,
// tables 3-9), parallel over the cores with OpenMP from 8192 elements (rows) up, on the calling
// thread below. Dot products conjugate their first argument.
#include <solvent_krylov/matrix_view.hpp>

#include <solvent/numerics/exact_sum.hpp>

#include <span>

namespace solvent::krylov::host {

template <class T>
void assign(std::span<const T> x, std::span<T> y);  // y = x
template <class T>
void scale(T a, std::span<T> x);  // x = a x
template <class T>
void axpy(T a, std::span<const T> x, std::span<T> y);  // y += a x
template <class T>
void waxpy(T a, std::span<const T> x, std::span<const T> y, std::span<T> w);  // w = a x + y
template <class T>
void axpby(T a, std::span<const T> x, T b, std::span<T> y);  // y = a x + b y
template <class T>
void elementwise_product(std::span<const T> d, std::span<T> x);  // x = d .* x (benchmarks)
template <class T>
T dot(std::span<const T> x, std::span<const T> y);  // sum conj(x) y
template <class T>
double norm2(std::span<const T> x);  // ||x||_2
// out[k] = <xs[k], ys[k]> for vectors of `size` values, each summed as dot sums it.
template <class T>
void dots(std::size_t size, std::span<const T* const> xs, std::span<const T* const> ys,
          std::span<T> out);
// sums[parts k + p] += part p (real, imaginary) of <xs[k], ys[k]>, parts = 1 for real T and 2
// for complex, line by line: the products of each run of `line` consecutive elements are
// added in index order, and the line sums exactly. The result depends on nothing but the
// lines — not on the threads, nor on how whole lines are spread over ranks — so a stencil's
// Krylov iterations repeat bit for bit on any number of ranks that cut no line.
template <class T>
void line_dots(std::size_t size, std::span<const T* const> xs, std::span<const T* const> ys,
               std::size_t line, std::span<ExactSum> sums);
// y = A x for either format.
template <class T>
void apply(const MatrixView<T>& a, std::span<const T> x, std::span<T> y);
// y = A x on the rows of a CSR matrix, returning <x, y> over them in the same pass, with the
// bits of apply then dots (x may be longer than the rows: a rank's values, then its ghosts').
template <class T>
T csr_apply_dot(const CsrMatrix<T>& m, std::span<const T> x, std::span<T> y);
// After apply on a distributed stencil's block: the rows next to its faces recomputed with
// the neighbours' values (ghosts, the halo exchange's receive buffer).
template <class T>
void face_rows(const Stencil7<T>& a, const FaceOffsets& faces, std::span<const T> x,
               std::span<const T> ghosts, std::span<T> y);

}  // namespace solvent::krylov::host
