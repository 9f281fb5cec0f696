// The conformance kit judges solvers by what they compute and models by what they promise: it
// passes an honest Jacobi solver and an honest model and names each flaw they can be given;
// run_integrator runs a shipped integrator on the model as `solvent run` would.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace tk = solvent::testkit;

namespace {
tk::LinearSolverChecks iterative() {
  tk::LinearSolverChecks c;
  c.direct = false;
  c.tolerance = 1e-10;
  return c;
}

// The Jacobi fixture with one flaw built in ("none": honest).
std::vector<std::string> jacobi_problems(const std::string& flaw) {
  return tk::linear_solver_problems("kit-jacobi", {{"flaw", flaw}}, iterative());
}

// True when one of the kit's findings contains `phrase`.
bool found(const std::vector<std::string>& problems, const std::string& phrase) {
  return std::any_of(problems.begin(), problems.end(),
                     [&](const std::string& p) { return p.find(phrase) != std::string::npos; });
}
}  // namespace

TEST_CASE("an honest solver conforms") {
  const auto problems = jacobi_problems("none");
  for (const auto& p : problems) FAIL_CHECK(p);
}

TEST_CASE("reporting convergence it did not reach is caught") {
  const auto problems = jacobi_problems("always-converged");
  CAPTURE(problems.size());
  CHECK(found(problems,
              "dense real system, n = 64: with max_iterations = 2 it reports convergence, but the "
              "true relative residual is"));
}

TEST_CASE("reporting a residual of 0 is caught") {
  const auto problems = jacobi_problems("zero-residual");
  CHECK(found(problems,
              "dense real system, n = 64: reports a relative residual of 0; the true one is"));
}

TEST_CASE("claiming every operator form is caught, form by form") {
  const auto problems = jacobi_problems("claims-every-form");
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
  const auto problems = jacobi_problems("refuses-matrix-free");
  CHECK(found(problems,
              "matrix-free real system, n = 64: it declares this form, but setup "
              "refused it: jacobi fixture: no matrix-free operators after all"));
  CHECK(found(problems, "matrix-free real system, n = 216, with a preconditioner: it threw"));
  CHECK_FALSE(found(problems, "dense real system"));
}

TEST_CASE("ignoring the preconditioner is caught") {
  const auto problems = jacobi_problems("ignores-preconditioner");
  CHECK(found(problems,
              "dense real system, n = 216, with a preconditioner: it ignores its "
              "preconditioner: with an exact one (M = A) it took"));
  CHECK(found(problems, "matrix-free real system, n = 216, with a preconditioner: it ignores"));
  // Without a preconditioner it is the honest solver.
  CHECK_FALSE(found(problems, "n = 64"));
}

TEST_CASE("with ILU(0) on a tridiagonal system, as a GPU solver is judged") {
  // The kit's exact preconditioner lives in host memory; a solver of another device gets
  // ILU(0) of its device on a system where that is the exact LU. The same path on the CPU:
  auto checks = iterative();
  checks.preconditioner = "ilu0";
  std::vector<std::string> notes;
  const auto honest = tk::linear_solver_problems("kit-jacobi", {}, checks, &notes);
  for (const auto& p : honest) FAIL_CHECK(p);
  CHECK(found(notes, "matrix-free real operators not run with 'ilu0', which needs entries"));
  const auto ignoring =
      tk::linear_solver_problems("kit-jacobi", {{"flaw", std::string("ignores-preconditioner")}},
                                 checks);
  CHECK(found(ignoring,
              "dense real system, n = 216, with a preconditioner: it ignores its preconditioner: "
              "with 'ilu0', exact on this tridiagonal system, it took"));
}

TEST_CASE("never converging is caught") {
  const auto problems = jacobi_problems("never-converges");
  CHECK(found(problems,
              "dense real system, n = 64: no convergence on a well-conditioned Hermitian positive "
              "definite system (status 'max_iterations'"));
}

TEST_CASE("an honest model conforms") {
  std::string skipped;
  // Both its exact solutions are the discrete ones: they solve its equations to rounding.
  for (const auto& p : tk::model_problems("kit-model", {}, skipped, 1e-12)) FAIL_CHECK(p);
  CHECK(skipped.empty());
}

TEST_CASE("each flaw of a model is caught and named") {
  const std::pair<const char*, const char*> flaws[] = {
      {"operator-size", "imex: the linear operator is 7 x 7, the layout holds 8 values"},
      {"operator-malformed",
       "imex: the linear operator is not a well-formed CSR matrix (row_ptr, col_idx and values "
       "disagree, or a column is out of range)"},
      {"operator-not-finite", "imex: the linear operator is not finite (row 1)"},
      {"state-out-of-range",
       "imex: the initial state leaves its declared range [0, 0.9]: u = 0.984807753012208 at "
       "x = 0.428571 (grid point 3)"},
      {"state-not-finite",
       "imex: the initial state is not finite (or not written): u = nan at x = 0.714286 (grid "
       "point 5)"},
      {"ranges-count", "imex: it declares 2 ranges for 1 components"},
      {"band-ordering", "imex: its band ordering is not a permutation of its 8 values"},
      {"explicit-term-not-finite",
       "imex: the explicit term at the initial state is not finite: u = nan at x = 0.857143 "
       "(grid point 6)"},
      {"exact-state-not-initial",
       "imex: its exact state at t = 0 differs from its initial state by 0.25"},
      {"exact-state-wrong-rate",
       "imex: its exact state does not solve its equation u' = Lin u + N(u, t): at t = 0.003 the "
       "residual du/dt - Lin u - N is 0.5 of the largest term (above 0.001), worst u = "},
      {"no-matrix", "linear: matrix() returned no operator"},
      {"matrix-not-square", "linear: the dense real matrix (8 x 9) is not square"},
      {"matrix-not-finite", "linear: the dense real matrix (8 x 8) is not finite (row 2)"},
      {"form-mismatch", "linear: the dense real matrix (8 x 8): form() says csr real"},
      {"rhs-throws", "linear: it threw: kit fixture: no right-hand side today"},
      {"rhs-size",
       "linear: the dense real matrix (8 x 8): its right-hand side is a real vector of 7"},
      {"rhs-not-finite", "linear: the right-hand side is not finite (row 3)"},
      {"wrong-exact-solution",
       "linear: its exact solution does not solve its system: ||b - A x|| / ||b|| ="},
      {"layout-size", "linear: the dense real matrix (8 x 8): its layout holds 7 values"},
  };
  for (const auto& [flaw, phrase] : flaws) {
    const std::string name = flaw;
    CAPTURE(name);
    std::string skipped;
    const auto problems = tk::model_problems("kit-model", {{"flaw", name}}, skipped);
    CAPTURE(problems.size());
    CHECK(found(problems, phrase));
    CHECK(problems.size() == 1);  // the flaw alone: every other check still passes
    if (problems.size() != 1)
      for (const auto& p : problems) MESSAGE(p);
  }
}

TEST_CASE("run_integrator runs a shipped integrator on a model of one's own") {
  const auto run =
      tk::run_integrator("imex-trapezoid", "kit-model", {{"dt", 0.01}, {"steps", std::int64_t{50}}});
  CHECK(run.result.steps == 50);
  CHECK(run.result.t == doctest::Approx(0.5));
  CHECK(run.states == 51);
  REQUIRE(run.state.size() == 8);
  // The model's exact solution at t = 0.5, which the second-order trapezoidal rule at
  // dt = 0.01 meets to about dt^2 = 1e-4 times the solution's curvature.
  std::vector<double> exact(8);
  auto model = tk::make_model("kit-model", {});
  REQUIRE(model->imex()->exact_state(0.5, exact));
  double error = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    CHECK(run.state[i] == doctest::Approx(exact[i]).epsilon(1e-5));
    error = std::max(error, std::abs(run.state[i] - exact[i]));
  }
  // The core's error against the exact state comes with the last state, as in a record.
  REQUIRE(run.observable("exact_error_max"));
  CHECK(*run.observable("exact_error_max") == error);
  CHECK(run.observable("exact_error_rel_l2"));
  CHECK_FALSE(run.observable("no such observable"));
}

TEST_CASE("run_integrator guards every state as solvent run does") {
  // The sink breaks no promise the model checks can see, only its range during a run.
  std::string skipped;
  CHECK(tk::model_problems("kit-model", {{"flaw", std::string("sink")}}, skipped).empty());
  CHECK_THROWS_WITH_AS(
      tk::run_integrator("imex-trapezoid", "kit-model",
                         {{"dt", 0.01}, {"steps", std::int64_t{50}}},
                         {{"flaw", std::string("sink")}}),
      doctest::Contains("the state of step 15 (t = 0.15) left the range of u (below 0): u = "),
      solvent::DivergenceError);
}

TEST_CASE("run_integrator hands the solver the preconditioner asked for") {
  // (I - dt/2 Lin) is tridiagonal, so ILU(0) is its exact LU: with it the Jacobi fixture
  // converges in one iteration, on its own diagonal in several.
  // One step: its solve starts from zeros (the initial-guess contract).
  const tk::Settings steps = {{"dt", 0.01}, {"steps", std::int64_t{1}}};
  const auto plain = tk::run_integrator("imex-trapezoid", "kit-model", steps, {}, "kit-jacobi");
  const auto with =
      tk::run_integrator("imex-trapezoid", "kit-model", steps, {}, "kit-jacobi", {}, "ilu0");
  CHECK(plain.result.last_solve.iterations >= 4);
  CHECK(with.result.last_solve.iterations == 1);
  REQUIRE(with.state.size() == plain.state.size());
  for (std::size_t i = 0; i < plain.state.size(); ++i)
    CHECK(with.state[i] == doctest::Approx(plain.state[i]).epsilon(1e-9));
}
