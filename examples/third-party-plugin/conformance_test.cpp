// The conformance kit run on acme-jacobi, as any plugin author would run it: the plugin is
// loaded by name from SOLVENT_PLUGIN_PATH exactly as `solvent run` loads it.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <solvent/testkit.hpp>

namespace tk = solvent::testkit;

// The kit solves the CSR systems acme-jacobi declares and the dense, banded and stencil ones
// the core converts to CSR for it.
TEST_CASE("acme-jacobi passes the iterative-solver conformance checks on every storage") {
  tk::LinearSolverChecks checks;
  checks.complex = true;
  checks.direct = false;
  checks.kind = solvent::OperatorKind::Csr;
  tk::check_linear_solver("acme-jacobi", {{"tolerance", 1e-10}}, checks);
}

TEST_CASE("acme-jacobi reports non-convergence with its best iterate instead of pretending") {
  auto solver = tk::make_linear_solver("acme-jacobi", {{"max_iterations", std::int64_t{5}}});
  // [[1, 2], [2, 1]] is not diagonally dominant: the Jacobi iteration matrix has
  // spectral radius 2, so the residual grows and the starting guess stays the best.
  solvent::DenseMatrix<double> a(2, 2);
  a(0, 0) = a(1, 1) = 1.0;
  a(0, 1) = a(1, 0) = 2.0;
  solver->setup(std::make_shared<const solvent::Operator>(a));
  std::vector<double> b{1.0, 1.0}, x{0.0, 0.0};
  const auto stats = solver->solve(std::span<const double>(b), std::span<double>(x));
  CHECK_FALSE(stats.converged);
  CHECK(stats.status == "max_iterations");
  CHECK(stats.iterations == 5);
  CHECK(stats.residual == doctest::Approx(1.0));
  CHECK(x == std::vector<double>{0.0, 0.0});
}

TEST_CASE("acme-jacobi's schema refuses a weight outside (0, 1]") {
  CHECK_THROWS_AS(tk::make_linear_solver("acme-jacobi", {{"weight", 1.5}}), solvent::ConfigError);
}
