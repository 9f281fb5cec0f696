#pragma once
// What the CPU and CUDA spaces share: the vectors' storage as the kernels take it, and, of
// their reductions, the last step of the exact line dot products (the exact partial sums of this
// rank added over the ranks as integer digits, so exactly, and each rounded once to the scalar it
// stands for).
#include <solvent/communicator.hpp>
#include <solvent/errors.hpp>
#include <solvent/numerics/exact_sum.hpp>
#include <solvent_krylov/scalar_math.hpp>

#include <cmath>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace solvent::krylov {

// A list operation's two lists (vectors, or scalars and vectors) go in pairs.
inline void check_pairs(std::size_t first, std::size_t second, const char* operation) {
  if (first != second)
    throw SolverError(std::string(operation) + ": lists of " + std::to_string(first) + " and " +
                      std::to_string(second) + " entries, which must pair up");
}

// The data() of each vector (host or device memory, as the vectors hold it).
template <class Pointers>
auto data_of(const Pointers& vectors) {
  std::vector<decltype(vectors[0]->data())> out(vectors.size());
  for (std::size_t k = 0; k < vectors.size(); ++k) out[k] = vectors[k]->data();
  return out;
}

// sums holds parts x count exact sums (parts = 2 for complex T: real, imaginary); comm is
// null on one rank.
template <class T>
std::vector<T> exact_values(std::span<ExactSum> sums, std::size_t count, const Communicator* comm) {
  constexpr std::size_t parts = std::is_same_v<T, double> ? 1 : 2;
  if (comm) sum_over_ranks(sums, *comm);
  std::vector<T> out(count);
  for (std::size_t k = 0; k < count; ++k) {
    if constexpr (parts == 1)
      out[k] = sums[k].value();
    else
      out[k] = T(sums[2 * k].value(), sums[2 * k + 1].value());
  }
  return out;
}

// dot, norm and dots of a space (CRTP: Space derives from this), each a case of its
// pair_dots, the one reduction a space implements: a product fused with others has the bits
// it has alone.
template <class Space, class Vector, class T>
class PairReductions {
 public:
  T dot(const Vector& x, const Vector& y) const {
    const Vector* xs[1] = {&x};
    const Vector* ys[1] = {&y};
    return space().pair_dots(xs, ys)[0];
  }
  double norm(const Vector& x) const { return std::sqrt(real_part(dot(x, x))); }
  // <x, ys[k]> for every k.
  std::vector<T> dots(const Vector& x, std::span<const Vector* const> ys) const {
    const std::vector<const Vector*> xs(ys.size(), &x);
    return space().pair_dots(xs, ys);
  }

 private:
  const Space& space() const { return static_cast<const Space&>(*this); }
};

}  // namespace solvent::krylov
