// The conformance kit judges solvers by what they compute: it passes an honest Jacobi
// solver and names the flaw of each dishonest build of it.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

namespace tk = solvent::testkit;

namespace {
tk::LinearSolverChecks iterative() {
  tk::LinearSolverChecks c;
  c.direct = false;
  c.tolerance = 1e-10;
  return c;
}

// True when one of the kit's findings contains `phrase`.
bool found(const std::vector<std::string>& problems, const std::string& phrase) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(phrase) != std::string::npos; });
}
}  // namespace

TEST_CASE("an honest solver conforms") {
  const auto problems = tk::linear_solver_problems("kit-honest", {}, iterative());
  for (const auto& p : problems) FAIL_CHECK(p);
}

TEST_CASE("reporting convergence it did not reach is caught") {
  const auto problems = tk::linear_solver_problems("kit-always-converged", {}, iterative());
  CAPTURE(problems.size());
  CHECK(found(problems,
              "dense real system, n = 64: with max_iterations = 2 it reports convergence, but the "
              "true relative residual is"));
}

TEST_CASE("reporting a residual of 0 is caught") {
  const auto problems = tk::linear_solver_problems("kit-zero-residual", {}, iterative());
  CHECK(found(problems, "dense real system, n = 64: reports a relative residual of 0; the true one is"));
}

TEST_CASE("claiming every operator form is caught, form by form") {
  const auto problems = tk::linear_solver_problems("kit-claims-every-form", {}, iterative());
  CHECK(found(problems, "csr real system, n = 64: it declares this form, but setup refused it: "
                        "jacobi fixture: dense real matrices only"));
  CHECK(found(problems,
              "stencil7 complex system, n = 125: it declares this form, but setup refused it"));
  CHECK_FALSE(found(problems, "dense real system"));
}

TEST_CASE("never converging is caught") {
  const auto problems = tk::linear_solver_problems("kit-never-converges", {}, iterative());
  CHECK(found(problems,
              "dense real system, n = 64: no convergence on a well-conditioned Hermitian positive "
              "definite system (status 'max_iterations'"));
}
