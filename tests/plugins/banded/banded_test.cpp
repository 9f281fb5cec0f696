// The banded solver on its own: the conformance checks of every linear solver, and its
// refusals. Its agreement with the dense solvers over whole trajectories is tested with the
// model it was built for, in tests/models/angiogenesis_1d.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <span>
#include <vector>

TEST_CASE("banded passes the linear-solver conformance checks") {
  solvent::testkit::LinearSolverChecks checks;
  checks.kind = solvent::OperatorKind::Banded;
  checks.complex = true;
  for (bool reuse : {true, false}) {
    CAPTURE(reuse);
    solvent::testkit::check_linear_solver("banded", {{"reuse_factorization", reuse}}, checks);
  }
}

TEST_CASE("banded refuses what it cannot take, with a clear message") {
  auto solver = solvent::testkit::make_linear_solver("banded");
  const auto singular =
      std::make_shared<const solvent::Operator>(solvent::BandedMatrix<double>(3, 1, 1));
  CHECK_THROWS_WITH_AS(solver->setup(singular),
                       "banded: singular matrix: gbtrf found U(1,1) = 0 at elimination step 1 of 3",
                       solvent::SolverError);
  solvent::BandedMatrix<double> identity(3, 1, 1);
  for (std::size_t i = 0; i < 3; ++i) identity.at(i, i) = 1.0;
  solver->setup(std::make_shared<const solvent::Operator>(identity));
  std::vector<double> x(3);
  std::vector<double> short_b(2, 1.0);
  CHECK_THROWS_WITH_AS(solver->solve(std::span<const double>(short_b), std::span<double>(x)),
                       "vectors of length 2 (b) and 3 (x) for an operator of 3 rows",
                       solvent::SolverError);
}
