#pragma once
// The house style for a method with CPU and CUDA variants: write the algorithm once, as a
// template over a *space* that owns the vectors and the operator, and give each back end a
// space — host memory and loops on the CPU, device memory and kernels on the GPU. The
// algorithm never sees where the numbers live; each variant is one line instantiating it.
// (The Krylov package is the model: solvent_krylov/host_space.hpp and device_space.hpp.)
//
// These concepts state what an algorithm may ask of a space, so a space that lacks an
// operation fails to compile at the instantiation with the missing requirement named.
#include <concepts>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace solvent {

// Vectors of Scalar and the level-1 operations on them. Reductions return host values.
template <class S>
concept VectorSpace = requires(const S& s, const typename S::Vector& x, typename S::Vector& y,
                               typename S::Scalar a, std::span<const typename S::Scalar> in,
                               std::span<typename S::Scalar> out,
                               std::span<const typename S::Vector* const> many,
                               std::span<typename S::Vector* const> many_out) {
  typename S::Scalar;
  typename S::Vector;
  { s.size() } -> std::convertible_to<std::size_t>;
  { s.device_name() } -> std::convertible_to<std::string>;
  { s.vector() } -> std::same_as<typename S::Vector>;    // zero-filled, size()
  { s.upload(in) } -> std::same_as<typename S::Vector>;  // host span -> space
  s.download(x, out);                                    // space -> host span
  s.assign(x, y);                                        // y = x
  s.scale(a, y);                                         // y = a y
  s.axpy(a, x, y);                                       // y = a x + y
  s.axpby(a, x, a, y);                                   // y = a x + b y
  s.waxpy(a, x, x, y);                                   // w = a x + y
  // The same update of several vectors at once (one launch on a device), each with the bits
  // of axpy, axpby, or axpy term by term: ys[k] += a xs[k]; ys[k] = a xs[k] + b ys[k];
  // y += sum c[k] xs[k].
  s.axpy_each(a, many, many_out);
  s.axpby_each(a, many, a, many_out);
  s.add_combination(in, many, y);
  { s.dot(x, x) } -> std::same_as<typename S::Scalar>;                   // conj(x) . y
  { s.norm(x) } -> std::same_as<double>;                                 // 2-norm
  { s.dots(x, many) } -> std::same_as<std::vector<typename S::Scalar>>;  // fused dots
  // <xs[k], ys[k]> for every k in one reduction (one round trip from a device, one sum over
  // the ranks), each with the bits dot gives it alone.
  { s.pair_dots(many, many) } -> std::same_as<std::vector<typename S::Scalar>>;
};

// A vector space that also applies a linear operator and its preconditioner. The
// preconditioner writes into another vector, as PETSc's PCApply does: in place it would
// cost a copy of its input first (one more pass over two vectors, every iteration).
template <class S>
concept OperatorSpace = VectorSpace<S> &&
    requires(const S& s, const typename S::Vector& x, typename S::Vector& y) {
  s.apply(x, y);                                              // y = A x
  { s.apply_dot(x, y) } -> std::same_as<typename S::Scalar>;  // y = A x, returns conj(x) . y
  s.precondition(x, y);  // y = M^{-1} x (y = x without a preconditioner)
};

}  // namespace solvent
