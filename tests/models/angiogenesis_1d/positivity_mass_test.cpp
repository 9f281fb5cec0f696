// Non-negativity under the projection, and the mass of C: conserved by the discrete
// transport terms, reported every step, identical across linear-solver back ends.
#include "imex_run.hpp"

#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

using namespace angio1d_test;

namespace {
RunSpec paper_run(std::int64_t m, std::int64_t steps) {
  RunSpec s;
  s.model = {{"M", m}};
  s.integrator_settings = {{"dt", 0.01}, {"steps", steps}};
  return s;
}

double min_over(const Trajectory& t, const std::string& observable) {
  double lo = INFINITY;
  for (std::size_t k = 0; k < t.states.size(); ++k) lo = std::min(lo, t.observable(k, observable));
  return lo;
}
}  // namespace

TEST_CASE("with the projection every species stays non-negative; without it C does not") {
  // A coarse step (dt = 0.1) on which the unprojected scheme undershoots below zero at the
  // front of C. (At the paper's dt = 0.01 and M = 400 it does not: there the projection
  // never acts; it starts to at M = 800.)
  RunSpec spec;
  spec.model = {{"M", std::int64_t(50)}};
  // What the projection does, measured without its limit (the next case is about the limit).
  spec.integrator_settings = {
      {"dt", 0.1}, {"steps", std::int64_t(20)}, {"projection_limit", 1.0}};
  for (const std::string integrator : {"imex-trapezoid", "imex-cnab2"}) {
    spec.integrator = integrator;
    const auto traj = run(spec);
    for (const std::string s : {"min_C", "min_P", "min_I", "min_F"}) {
      CAPTURE(integrator);
      CAPTURE(s);
      CHECK(min_over(traj, s) >= 0.0);
    }
  }
  spec.integrator = "imex-trapezoid";
  spec.integrator_settings["projection"] = false;
  const double lowest = min_over(run(spec), "min_C");
  MESSAGE("without the projection, min C over the run = " << lowest);
  CHECK(lowest < -1e-3);
  const auto quoted = solvent::test::quoted_figure(MODEL_DOC, "with the projection; min C = ");
  CHECK(solvent::test::written_like(lowest, quoted) == quoted);
}

TEST_CASE("a projection that removes more than projection_limit of the state stops the run") {
  // The unstable runs of cnab2 at dt = 0.1 once ended "completed" with a mass of C far from
  // the converged one (the model's page keeps that history): the projection removed up to
  // 8 % of the state per step.
  RunSpec spec;
  spec.integrator = "imex-cnab2";
  spec.integrator_settings = {{"dt", 0.1}, {"steps", std::int64_t(200)}};
  std::string message;
  try {
    run(spec);
  } catch (const solvent::DivergenceError& e) {
    message = e.what();
  }
  MESSAGE(message);
  CHECK(message.starts_with("imex-cnab2: the projection removed "));
  CHECK(message.find("more than projection_limit = 0.001: the step is unstable — reduce dt") !=
        std::string::npos);
  // At the paper's settings the projection removes nothing; the share is an observable. Run
  // on to t = 20, the mass of C is the converged one the page sets against that history.
  spec.integrator_settings = {{"dt", 0.01}, {"steps", std::int64_t(2000)}};
  const auto traj = run(spec);
  const auto converged = solvent::test::quoted_figure(MODEL_DOC, "at t = 20, against ");
  CHECK(solvent::test::written_like(traj.observable(2000, "mass_C"), converged) == converged);
  for (std::size_t k = 0; k < traj.states.size(); ++k)
    CHECK(traj.observable(k, "projected") == 0.0);
  // The banded solver's partial pivoting on this matrix (M = 400, dt = 0.01) swaps the rows
  // the model's page counts.
  CHECK(fact(traj.solver_facts, "row_interchanges") ==
        solvent::test::quoted_figure(MODEL_DOC, "Partial pivoting does swap rows here — "));
}

TEST_CASE("the projection's shares and the stopping steps the model's page quotes") {
  // imex-cnab2 from the paper's start (no Rannacher steps), the projection measured without
  // its limit, then stopping at it.
  const auto share = [](std::int64_t m, double dt, std::int64_t steps) {
    RunSpec spec;
    spec.model = {{"M", m}};
    spec.integrator = "imex-cnab2";
    spec.integrator_settings = {{"dt", dt}, {"steps", steps}, {"projection_limit", 1.0}};
    const auto traj = run(spec);
    double most = 0;
    for (std::size_t k = 0; k < traj.states.size(); ++k)
      most = std::max(most, traj.observable(k, "projected"));
    return most;
  };
  const auto check_quoted = [](const std::string& before, double measured) {
    const auto figure = solvent::test::quoted_figure(MODEL_DOC, before);
    CHECK_MESSAGE(solvent::test::written_like(measured, figure) == figure, before << measured);
  };
  check_quoted("M = 800 at dt = 0.01\n  at most ", share(800, 0.01, 100));
  check_quoted("dt = 0.05 (100 steps) up to\n  ", share(400, 0.05, 100));
  check_quoted("dt = 0.1 (200 steps) up to ", share(400, 0.1, 200));
  for (const auto& [dt, steps, before] :
       {std::tuple{0.05, std::int64_t(100), "now they\n  stop at step "},
        std::tuple{0.1, std::int64_t(200), " and at step "}}) {
    RunSpec spec;
    spec.integrator = "imex-cnab2";
    spec.integrator_settings = {{"dt", dt}, {"steps", steps}};
    std::string message;
    try {
      run(spec);
    } catch (const solvent::DivergenceError& e) {
      message = e.what();
    }
    const auto step = solvent::test::quoted_figure(MODEL_DOC, before);
    CHECK_MESSAGE(message.find("at step " + step + " (t = ") != std::string::npos, message);
  }
  // Without the projection at M = 800 C dips to the minimum "What the runs show" quotes.
  RunSpec spec;
  spec.model = {{"M", std::int64_t(800)}};
  spec.integrator = "imex-cnab2";
  spec.integrator_settings = {{"projection", false}};
  check_quoted("(run without it, min C =\n  ", min_over(run(spec), "min_C"));
}

TEST_CASE("without growth the trapezoid-rule mass of C is conserved to round-off") {
  // The Neumann rows of D2 and the ghost fluxes of the taxis terms both sum to zero under
  // the trapezoid weights, so only k1 C (1 - C) changes the mass of C.
  auto spec = paper_run(200, 100);
  spec.model["parameters.k1"] = 0.0;
  spec.integrator_settings["projection"] = false;
  const auto traj = run(spec);
  const double m0 = traj.observable(0, "mass_C");
  double drift = 0;
  for (std::size_t k = 0; k < traj.states.size(); ++k)
    drift = std::max(drift, std::abs(traj.observable(k, "mass_C") - m0) / m0);
  MESSAGE("relative drift of the mass of C over 100 steps: " << drift);
  // The model's page states the bound in its prose and in its table of evidence.
  solvent::test::check_quoted_bound(MODEL_DOC, "(tested: a relative drift below ", drift);
  solvent::test::check_quoted_bound(MODEL_DOC, "| relative drift below ", drift);
}

TEST_CASE("the mass of C agrees between linear-solver back ends at every step") {
  const std::vector<std::pair<std::string, bool>> backends = {
      {"gepp-cpu", false}, {"gepp-cpu", true}, {"lapack", false},
      {"lapack", true},    {"banded", false},  {"banded", true}};
  auto spec = paper_run(100, 50);
  spec.solver = "lapack";
  const auto reference = run(spec);
  for (const auto& [solver, reuse] : backends) {
    spec.solver = solver;
    spec.solver_settings = {{"reuse_factorization", reuse}};
    const auto traj = run(spec);
    double worst = 0;
    for (std::size_t k = 0; k < traj.states.size(); ++k)
      worst = std::max(worst,
                       std::abs(traj.observable(k, "mass_C") - reference.observable(k, "mass_C")) /
                           reference.observable(k, "mass_C"));
    MESSAGE(solver << std::string(reuse ? " (reuse)" : "")
                   << ": mass of C differs from lapack by at most " << worst);
    CAPTURE(solver);
    CAPTURE(reuse);
    solvent::test::check_quoted_bound(MODEL_DOC, "each with and without reuse | within ", worst);
  }
}
