// gepp-cpu and lapack through the conformance kit: random, badly scaled and nearly
// singular systems, real and complex, with and without factorization reuse.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

using namespace solvent;
using solvent::testkit::LinearSolverChecks;

TEST_CASE("gepp-cpu conforms") {
  for (bool reuse : {false, true}) {
    INFO("reuse_factorization = " << reuse);
    testkit::check_linear_solver("gepp-cpu", {{"reuse_factorization", reuse}},
                                 LinearSolverChecks{.real = true, .complex = true, .n = 96});
  }
}

TEST_CASE("lapack conforms") {
  for (bool reuse : {false, true}) {
    INFO("reuse_factorization = " << reuse);
    testkit::check_linear_solver("lapack", {{"reuse_factorization", reuse}},
                                 LinearSolverChecks{.real = true, .complex = true, .n = 96});
  }
}

TEST_CASE("gepp-cpu with and without reuse gives the same bits") {
  auto fresh = testkit::make_linear_solver("gepp-cpu");
  auto reused = testkit::make_linear_solver("gepp-cpu", {{"reuse_factorization", true}});
  DenseMatrix<double> a(50, 50);
  for (std::size_t i = 0; i < 50; ++i)
    for (std::size_t j = 0; j < 50; ++j) a(i, j) = std::sin(double(i * 50 + j) + 1.0);
  auto op = std::make_shared<const Operator>(a);
  fresh->setup(op);
  reused->setup(op);
  std::vector<double> b(50), x1(50), x2(50);
  for (std::size_t i = 0; i < 50; ++i) b[i] = std::cos(double(i));
  fresh->solve(std::span<const double>(b), std::span<double>(x1));
  reused->solve(std::span<const double>(b), std::span<double>(x2));
  CHECK(x1 == x2);
}
