// gepp-cuda in each mode (the blocked LU too), and cusolver, through the same conformance
// checks as the CPU solvers (random, badly scaled and nearly singular systems against
// LAPACK), and the failure messages of singular and non-finite pivots.
#include <doctest/doctest.h>

#include <solvent/errors.hpp>
#include <solvent/testkit.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

using solvent::testkit::Settings;

namespace {

void check_singular(const std::string& solver_name, const Settings& s,
                    const solvent::DenseMatrix<double>& a, const std::string& message) {
  auto solver = solvent::testkit::make_linear_solver(solver_name, s);
  std::vector<double> b(a.rows, 1.0), x(a.rows);
  auto solve = [&] {
    solver->setup(std::make_shared<const solvent::Operator>(a));
    solver->solve(std::span<const double>(b), std::span<double>(x));
  };
  CHECK_THROWS_WITH_AS(solve(), message.c_str(), solvent::SolverError);
}

}  // namespace

TEST_CASE("conformance: gepp-cuda in paper mode") {
  solvent::testkit::check_linear_solver("gepp-cuda", {{"mode", std::string("paper")}}, {});
}

TEST_CASE("conformance: gepp-cuda in best mode") {
  solvent::testkit::check_linear_solver("gepp-cuda", {{"mode", std::string("best")}}, {});
}

TEST_CASE("conformance: gepp-cuda refactoring from the resident matrix through a graph") {
  solvent::testkit::check_linear_solver("gepp-cuda", {{"reuse_factorization", false}}, {});
}

TEST_CASE("conformance: gepp-cuda with host substitution of reused factors") {
  solvent::testkit::check_linear_solver(
      "gepp-cuda", {{"back_substitution", std::string("host")}, {"kernels", std::string("paper")}},
      {.n = 100});
}

TEST_CASE("conformance: gepp-cuda in blocked mode") {
  solvent::testkit::check_linear_solver("gepp-cuda", {{"mode", std::string("blocked")}}, {});
  // block_size 48 splits each panel into sub-panels of 32 and 16 columns: the swaps and
  // updates inside a panel run too; refactoring restores the matrix before every solve.
  solvent::testkit::check_linear_solver("gepp-cuda",
                                        {{"mode", std::string("blocked")},
                                         {"block_size", std::int64_t{48}},
                                         {"reuse_factorization", false}},
                                        {.n = 150});
}

TEST_CASE("blocked mode: the pipeline's switches, its own outside it, and part warps are refused") {
  CHECK_THROWS_AS(
      solvent::testkit::make_linear_solver(
          "gepp-cuda", {{"mode", std::string("blocked")}, {"launch", std::string("graph")}}),
      solvent::ConfigError);
  CHECK_THROWS_AS(
      solvent::testkit::make_linear_solver("gepp-cuda", {{"block_size", std::int64_t{32}}}),
      solvent::ConfigError);
  CHECK_THROWS_AS(
      solvent::testkit::make_linear_solver(
          "gepp-cuda", {{"mode", std::string("blocked")}, {"panel_threads", std::int64_t{100}}}),
      solvent::ConfigError);
}

TEST_CASE("conformance: cusolver") {
  solvent::testkit::check_linear_solver("cusolver", {}, {});
  solvent::testkit::check_linear_solver("cusolver", {{"reuse_factorization", false}}, {});
}

TEST_CASE("singular: a zero pivot is reported with its elimination step, as gepp-cpu does") {
  // After the first step the second column is zero below the diagonal.
  solvent::DenseMatrix<double> a(3, 3);
  const double rows[3][3] = {{1, 1, 1}, {1, 1, 2}, {1, 1, 3}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) a(i, j) = rows[i][j];
  const std::string where = "singular matrix: pivot 0 at elimination step 2 of 3 (column 1)";
  check_singular("gepp-cpu", {}, a, "gepp-cpu: " + where);
  for (const char* mode : {"paper", "best", "blocked"}) {
    INFO("mode " << std::string(mode));
    check_singular("gepp-cuda", {{"mode", std::string(mode)}}, a, "gepp-cuda: " + where);
  }
  check_singular("gepp-cuda", {{"reuse_factorization", false}}, a, "gepp-cuda: " + where);
  // cuSOLVER factors the transpose, so its failing step may differ: only the wording is fixed.
  auto vendor = solvent::testkit::make_linear_solver("cusolver");
  try {
    vendor->setup(std::make_shared<const solvent::Operator>(a));
    FAIL("cusolver accepted a singular matrix");
  } catch (const solvent::SolverError& e) {
    CHECK(std::string(e.what()).rfind("cusolver: singular matrix: getrf found U(", 0) == 0);
  }
}

TEST_CASE("singular: a NaN in the matrix is chosen as pivot and reported") {
  solvent::DenseMatrix<double> a(2, 2);
  a(0, 0) = 1.0;
  a(1, 0) = std::numeric_limits<double>::quiet_NaN();
  a(1, 1) = 1.0;
  for (const char* mode : {"paper", "best", "blocked"}) {
    INFO("mode " << std::string(mode));
    check_singular("gepp-cuda", {{"mode", std::string(mode)}}, a,
                   "gepp-cuda: singular matrix: pivot nan at elimination step 1 of 2 (column 0)");
  }
}

TEST_CASE("no device: an ordinal past the last device is a DeviceUnavailable with one line") {
  // The largest ordinal the schema takes: no host has 256 GPUs.
  auto solver = solvent::testkit::make_linear_solver("gepp-cuda", {{"device", std::int64_t{255}}});
  solvent::DenseMatrix<double> a(1, 1);
  a(0, 0) = 1.0;
  CHECK_THROWS_AS(solver->setup(std::make_shared<const solvent::Operator>(a)),
                  solvent::DeviceUnavailable);
}
