#include "run/observers.hpp"

namespace solvent {

// Over the host's threads in chunks of a fixed length, each summed alone and the chunk sums
// added in order: the same bits for any number of threads (a grid's solution is 10^8 values
// and more, which one thread took longer over than the solve).
template <class T>
ErrorSums exact_error_sums(std::span<const T> u, std::span<const T> exact) {
  constexpr std::size_t chunk = std::size_t(1) << 15;
  const std::size_t n = std::min(u.size(), exact.size());
  const std::size_t chunks = (n + chunk - 1) / chunk;
  std::vector<ErrorSums> part(chunks);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(chunks); ++c) {
    const std::size_t begin = static_cast<std::size_t>(c) * chunk;
    ErrorSums s;
    for (std::size_t i = begin; i < std::min(n, begin + chunk); ++i) {
      const double d = std::abs(u[i] - exact[i]);
      s.max = std::max(s.max, d);
      s.squares += d * d;
      s.exact_squares += std::norm(exact[i]);
    }
    part[static_cast<std::size_t>(c)] = s;
  }
  ErrorSums all;
  for (const auto& s : part) {
    all.max = std::max(all.max, s.max);
    all.squares += s.squares;
    all.exact_squares += s.exact_squares;
  }
  return all;
}

template ErrorSums exact_error_sums(std::span<const double>, std::span<const double>);
template ErrorSums exact_error_sums(std::span<const std::complex<double>>,
                                    std::span<const std::complex<double>>);

}  // namespace solvent
