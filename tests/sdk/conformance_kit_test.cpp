// The conformance kit judges solvers by what they compute and models by what they promise: it
// passes an honest Jacobi solver and an honest model and names the flaw of each dishonest
// build of them.
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
  CHECK(found(problems,
              "dense real system, n = 64: reports a relative residual of 0; the true one is"));
}

TEST_CASE("claiming every operator form is caught, form by form") {
  const auto problems = tk::linear_solver_problems("kit-claims-every-form", {}, iterative());
  CHECK(found(problems,
              "csr real system, n = 64: it declares this form, but setup refused it: "
              "jacobi fixture: dense and matrix-free real operators only"));
  CHECK(found(problems,
              "stencil7 complex system, n = 125: it declares this form, but setup refused it"));
  CHECK(found(problems,
              "matrix-free complex system, n = 64: it declares this form, but setup refused it"));
  CHECK_FALSE(found(problems, "dense real system"));
  CHECK_FALSE(found(problems, "matrix-free real system"));
}

TEST_CASE("declaring matrix-free operators and refusing them is caught") {
  const auto problems = tk::linear_solver_problems("kit-refuses-matrix-free", {}, iterative());
  CHECK(found(problems,
              "matrix-free real system, n = 64: it declares this form, but setup "
              "refused it: jacobi fixture: no matrix-free operators after all"));
  CHECK(found(problems, "matrix-free real system, n = 216, with a preconditioner: it threw"));
  CHECK_FALSE(found(problems, "dense real system"));
}

TEST_CASE("ignoring the preconditioner is caught") {
  const auto problems = tk::linear_solver_problems("kit-ignores-preconditioner", {}, iterative());
  CHECK(found(problems,
              "dense real system, n = 216, with a preconditioner: it ignores its "
              "preconditioner: with an exact one (M = A) it took"));
  CHECK(found(problems, "matrix-free real system, n = 216, with a preconditioner: it ignores"));
  // Without a preconditioner it is the honest solver.
  CHECK_FALSE(found(problems, "n = 64"));
}

TEST_CASE("never converging is caught") {
  const auto problems = tk::linear_solver_problems("kit-never-converges", {}, iterative());
  CHECK(found(problems,
              "dense real system, n = 64: no convergence on a well-conditioned Hermitian positive "
              "definite system (status 'max_iterations'"));
}

TEST_CASE("an honest model conforms") {
  std::string skipped;
  // Its exact solution is the discrete one: it solves the system to rounding.
  for (const auto& p : tk::model_problems("kit-model-honest", {}, skipped, 1e-12)) FAIL_CHECK(p);
  CHECK(skipped.empty());
}

TEST_CASE("each flaw of a model is caught and named") {
  const std::pair<const char*, const char*> flaws[] = {
      {"kit-model-operator-size", "imex: the linear operator is 7 x 7, the layout holds 8 values"},
      {"kit-model-state-out-of-range",
       "imex: the initial state leaves its declared range [0, inf]: u = -0.5 at x ="},
      {"kit-model-operator-not-finite", "imex: the linear operator is not finite (row 1)"},
      {"kit-model-matrix-not-finite",
       "linear: the dense real matrix (8 x 8) is not finite (row 2)"},
      {"kit-model-rhs-size",
       "linear: the dense real matrix (8 x 8): its right-hand side is a real vector of 7"},
      {"kit-model-wrong-exact-solution",
       "linear: its exact solution does not solve its system: ||b - A x|| / ||b|| ="},
  };
  for (const auto& [model, phrase] : flaws) {
    const std::string name = model;
    CAPTURE(name);
    std::string skipped;
    const auto problems = tk::model_problems(name, {}, skipped);
    CAPTURE(problems.size());
    CHECK(found(problems, phrase));
    CHECK(problems.size() == 1);  // the flaw alone: every other check still passes
  }
}

TEST_CASE("run_integrator runs a shipped integrator on a model of one's own") {
  const auto run = tk::run_integrator("imex-trapezoid", "kit-model-honest",
                                      {{"dt", 0.01}, {"steps", std::int64_t{50}}});
  CHECK(run.result.steps == 50);
  CHECK(run.result.t == doctest::Approx(0.5));
  CHECK(run.states == 51);
  REQUIRE(run.state.size() == 8);
  // u' = Lin u - u^2 / 10 from a positive sine: it decays and stays positive.
  for (double u : run.state) {
    CHECK(u > 0.0);
    CHECK(u < 1.0);
  }
}
