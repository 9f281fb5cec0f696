// gepp-cuda's blocked LU (mode = "blocked") against gepp-cpu: systems large enough for
// several panels, sub-panels narrower than a panel and row swaps across panels, with the
// factorisation reused and refactored, at block sizes that divide the order and that do
// not, the matrix sent through page-locked chunks (one and several per host thread) and
// from pageable memory.
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include "gepp_cpu_reference.hpp"

#include <solvent_test/implicit_system.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

using solvent::testkit::Settings;

namespace {

// x from gepp-cpu and from gepp-cuda in blocked mode with each of `settings` (two solves
// after one setup: the second must not depend on the first), compared.
using Labelled = std::vector<std::pair<std::string, Settings>>;

void check_against_gepp_cpu(const solvent::DenseMatrix<double>& a, const Labelled& settings,
                            double tolerance) {
  const auto op = std::make_shared<const solvent::Operator>(a);
  const auto [b, reference] = gepp_cpu_reference(op, a.rows);
  std::vector<double> x(a.rows);
  for (auto [label, s] : settings) {
    s["mode"] = std::string("blocked");
    INFO("n=" << a.rows << ", " << label);
    auto gpu = solvent::testkit::make_linear_solver("gepp-cuda", s);
    gpu->setup(op);
    for (int repeat = 0; repeat < 2; ++repeat) {
      std::fill(x.begin(), x.end(), std::nan(""));
      gpu->solve(std::span<const double>(b), std::span<double>(x));
      CHECK(solvent::test::relative_difference(x, reference) <= tolerance);
    }
  }
}

// Every block size with the factorisation reused and refactored, and one pageable upload.
Labelled block_sizes_and_uploads() {
  Labelled out;
  for (const std::int64_t block_size : {64, 48, 7}) {
    for (const bool reuse : {true, false}) {
      out.push_back(
          {"block_size " + std::to_string(block_size) + ", reuse " + (reuse ? "on" : "off"),
           {{"block_size", block_size}, {"reuse_factorization", reuse}}});
    }
  }
  out.push_back({"pageable upload", {{"pinned_upload", false}}});
  return out;
}

// Uniform entries plus a large entry at a random row of every column: partial pivoting
// must swap rows at nearly every step (the pivots land across panel boundaries), while the
// matrix stays well conditioned, so that two backward-stable solves agree to near eps.
solvent::DenseMatrix<double> scattered_pivots(std::size_t n, std::uint64_t seed) {
  solvent::DenseMatrix<double> a(n, n);
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a(i, j) = uniform(random);
  std::vector<std::size_t> row(n);
  std::iota(row.begin(), row.end(), std::size_t{0});
  std::shuffle(row.begin(), row.end(), random);
  for (std::size_t j = 0; j < n; ++j) a(row[j], j) += 0.25 * double(n);
  return a;
}

}  // namespace

TEST_CASE("blocked: scattered pivots, n = 1100 (sub-panels of 16 columns) as with gepp-cpu") {
  check_against_gepp_cpu(scattered_pivots(1100, 7), block_sizes_and_uploads(), 1e-12);
}

TEST_CASE("blocked: scattered pivots, n = 2100 (two page-locked chunks per host thread)") {
  check_against_gepp_cpu(scattered_pivots(2100, 11), {{"defaults", {}}}, 1e-12);
}

TEST_CASE("blocked: the angiogenesis system (M = 100) solves as with gepp-cpu") {
  auto model = solvent::testkit::make_model("angiogenesis-1d", {{"M", std::int64_t{100}}});
  check_against_gepp_cpu(solvent::test::implicit_matrix(model->imex()->linear_operator(), 0.01),
                         block_sizes_and_uploads(), 1e-13);
}
