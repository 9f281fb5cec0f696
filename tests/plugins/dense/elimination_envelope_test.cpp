// The zero-pattern envelope and the host substitution of gepp-cuda, on the CPU: the
// envelope's bounds must hold for whatever pivots partial pivoting picks, and solving
// with factors restricted to the profile must give the dense answer.
#include <doctest/doctest.h>

#include <solvent_dense/elimination_envelope.hpp>
#include <solvent_dense/host_substitution.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

using solvent::dense::EliminationEnvelope;
using solvent::dense::FactorProfile;

namespace {

// Block lower triangular with tridiagonal diagonal blocks and a diagonal coupling block,
// the shape of the angiogenesis matrix; the coupling is made large so that partial
// pivoting really swaps rows across blocks.
std::vector<double> block_lower_triangular(std::size_t m, std::mt19937_64& rng) {
  const std::size_t n = 4 * m;
  std::uniform_real_distribution<double> u(0.5, 1.5);
  std::vector<double> a(n * n, 0.0);
  for (std::size_t b = 0; b < 4; ++b) {
    for (std::size_t i = 0; i < m; ++i) {
      const std::size_t r = b * m + i;
      a[r * n + r] = b == 3 ? 1.0 : u(rng);
      if (b < 3 && i > 0) a[r * n + r - 1] = -u(rng);
      if (b < 3 && i + 1 < m) a[r * n + r + 1] = -u(rng);
    }
  }
  for (std::size_t i = 0; i < m; ++i) a[(m + i) * n + i] = 3.0 * u(rng);  // (P, C) block
  return a;
}

// Dense GEPP keeping the unscaled multipliers below the diagonal, as the kernels do.
std::vector<std::int32_t> factor_dense(std::vector<double>& a, std::size_t n,
                                       const EliminationEnvelope& env) {
  std::vector<std::int32_t> pivots(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i) {
      if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k])) p = i;
    }
    // The envelope's claims at this step, checked on the dense state.
    for (std::size_t i = std::size_t(env.row_end[k]) + 1; i < n; ++i) REQUIRE(a[i * n + k] == 0.0);
    pivots[k] = std::int32_t(p);
    for (std::size_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
    for (std::size_t j = std::size_t(env.col_end[k]) + 1; j < n; ++j) REQUIRE(a[k * n + j] == 0.0);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double l = a[i * n + k] / a[k * n + k];
      for (std::size_t j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return pivots;
}

}  // namespace

TEST_CASE("the envelope of a block lower triangular matrix bounds every step of dense GEPP") {
  std::mt19937_64 rng(7);
  const std::size_t m = 12, n = 4 * m;
  auto a = block_lower_triangular(m, rng);
  const auto env = EliminationEnvelope::of_matrix(a.data(), n);
  // First block column: the coupling reaches row m + k, the tridiagonal column m + k + 1.
  CHECK(env.row_end[0] == std::int32_t(m));
  CHECK(env.col_end[0] == std::int32_t(m + 1));
  CHECK(env.row_end[3 * m] == std::int32_t(3 * m));  // the identity block: nothing below
  CHECK(env.update_count() < 0.2 * double(n) * double(n) * double(n) / 3.0);
  for (std::size_t k = 1; k < n; ++k) {
    CHECK(env.row_end[k] >= env.row_end[k - 1]);
    CHECK(env.col_end[k] >= env.col_end[k - 1]);
  }
  auto lu = a;
  const auto pivots = factor_dense(lu, n, env);
  CHECK(std::any_of(pivots.begin(), pivots.end(),
                    [k = 0](std::int32_t p) mutable { return p != k++; }));

  const auto profile = FactorProfile::of(env, pivots);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < std::size_t(profile.lower_begin[i]); ++k)
      CHECK(lu[i * n + k] == 0.0);
    for (std::size_t j = std::size_t(profile.upper_end[i]) + 1; j < n; ++j)
      CHECK(lu[i * n + j] == 0.0);
  }
}

TEST_CASE("a dense matrix has the whole matrix as envelope") {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const std::size_t n = 9;
  std::vector<double> a(n * n);
  for (auto& v : a) v = u(rng);
  const auto env = EliminationEnvelope::of_matrix(a.data(), n);
  const auto dense = EliminationEnvelope::dense(n);
  CHECK(env.row_end == dense.row_end);
  CHECK(env.col_end == dense.col_end);
}

TEST_CASE("host substitution with the profile solves A x = b") {
  std::mt19937_64 rng(11);
  const std::size_t m = 10, n = 4 * m;
  const auto a = block_lower_triangular(m, rng);
  const auto env = EliminationEnvelope::of_matrix(a.data(), n);
  auto lu = a;
  const auto pivots = factor_dense(lu, n, env);
  const auto profile = FactorProfile::of(env, pivots);
  std::vector<std::int32_t> permutation(n);
  std::iota(permutation.begin(), permutation.end(), 0);
  for (std::size_t k = 0; k < n; ++k)
    std::swap(permutation[k], permutation[std::size_t(pivots[k])]);

  std::vector<double> x_true(n), b(n, 0.0), y(n), x(n);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : x_true) v = u(rng);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) b[i] += a[i * n + j] * x_true[j];
  solvent::dense::forward_substitute(lu.data(), n, n, permutation.data(),
                                     profile.lower_begin.data(), b.data(), y.data());
  solvent::dense::back_substitute(lu.data(), n, n, profile.upper_end.data(), y.data(), x.data());
  for (std::size_t i = 0; i < n; ++i) CHECK(x[i] == doctest::Approx(x_true[i]).epsilon(1e-12));
}
