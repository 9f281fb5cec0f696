#pragma once
// The CPU building blocks of the Krylov solvers (the operations timed in Cheik Ahamed and Magoules,
// tables 3-9), parallel over the cores with OpenMP. Dot products conjugate their first argument.
#include <solvent_krylov/matrix_view.hpp>

#include <span>

namespace solvent::krylov::host {

template <class T>
void assign(std::span<const T> x, std::span<T> y);  // y = x
template <class T>
void scale(T a, std::span<T> x);  // x = a x
template <class T>
void axpy(T a, std::span<const T> x, std::span<T> y);  // y += a x
template <class T>
void axpby(T a, std::span<const T> x, T b, std::span<T> y);  // y = a x + b y
template <class T>
void elementwise_product(std::span<const T> d, std::span<T> x);  // x = d .* x (benchmarks)
template <class T>
T dot(std::span<const T> x, std::span<const T> y);  // sum conj(x) y
template <class T>
double norm2(std::span<const T> x);  // ||x||_2
// out[k] = <x, ys[k]> in one pass over x.
template <class T>
void dots(std::span<const T> x, std::span<const T* const> ys, std::span<T> out);
// y = A x for either format.
template <class T>
void apply(const MatrixView<T>& a, std::span<const T> x, std::span<T> y);

}  // namespace solvent::krylov::host
