// gepp-cuda's blocked LU (mode = "blocked") against gepp-cpu: systems large enough for
// several panels, sub-panels and row swaps across panels, with the factorisation reused
// and refactored, at block sizes that divide the order and that do not.
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include <solvent_test/implicit_system.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

using solvent::testkit::Settings;

namespace {

// x from gepp-cpu and from gepp-cuda in blocked mode (two solves after one setup: the
// second must not depend on the first), compared.
void check_against_gepp_cpu(const solvent::DenseMatrix<double>& a, double tolerance) {
  const auto op = std::make_shared<const solvent::Operator>(a);
  std::vector<double> b(a.rows), reference(a.rows), x(a.rows);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.37 * double(i)) + 1.5;
  auto cpu = solvent::testkit::make_linear_solver("gepp-cpu");
  cpu->setup(op);
  cpu->solve(std::span<const double>(b), std::span<double>(reference));
  for (const std::int64_t block_size : {64, 48, 7}) {
    for (const bool reuse : {true, false}) {
      INFO("n=" << a.rows << " block_size=" << block_size << " reuse=" << reuse);
      const Settings s{{"mode", std::string("blocked")},
                       {"block_size", block_size},
                       {"reuse_factorization", reuse}};
      auto gpu = solvent::testkit::make_linear_solver("gepp-cuda", s);
      gpu->setup(op);
      for (int repeat = 0; repeat < 2; ++repeat) {
        std::fill(x.begin(), x.end(), std::nan(""));
        gpu->solve(std::span<const double>(b), std::span<double>(x));
        CHECK(dense_bench::relative_difference(x, reference) <= tolerance);
      }
    }
  }
}

}  // namespace

TEST_CASE("blocked: a random matrix, where every step pivots, solves as with gepp-cpu") {
  // Uniform entries: the pivot rows are scattered, so swaps cross panel boundaries. Its
  // condition number is of order n, so two backward-stable solves agree to about n eps.
  const std::size_t n = 700;
  solvent::DenseMatrix<double> a(n, n);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a(i, j) = uniform(random);
  check_against_gepp_cpu(a, 1e-11);
}

TEST_CASE("blocked: the angiogenesis system (M = 100) solves as with gepp-cpu") {
  auto model = solvent::testkit::make_model("angiogenesis-1d", {{"M", std::int64_t{100}}});
  check_against_gepp_cpu(dense_bench::implicit_matrix(model->imex()->linear_operator(), 0.01),
                         1e-13);
}
