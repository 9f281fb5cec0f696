// imex-ark23: third order in fixed steps on the testkit's manufactured problem; on the 1D
// model, an error at t = 1 that follows the tolerance, rejected steps where a too long first
// step meets the initial step in C, the same trajectory on every kind of linear solver, the
// controller's counts in its facts and observables, and clear refusals.
#include <solvent/testkit.hpp>
#include <solvent_test/reference_kernels.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace tk = solvent::testkit;

namespace {

// The last state and each reported step's observables of a run.
class Trace : public solvent::Observer {
 public:
  void on_step(const solvent::StepInfo& info, std::span<const double> u,
               std::span<const solvent::Observable> obs) override {
    state.assign(u.begin(), u.end());
    infos.push_back(info);
    std::map<std::string, double> row;
    for (const auto& o : obs) row[o.name] = o.value;
    rows.push_back(row);
  }
  std::vector<double> state;
  std::vector<solvent::StepInfo> infos;
  std::vector<std::map<std::string, double>> rows;
};

struct Run {
  Trace trace;
  solvent::Facts facts;
  std::string fact(const std::string& key) const {
    for (const auto& [k, v] : facts)
      if (k == key) return v;
    return {};
  }
};

// imex-ark23 to t = 1 on angiogenesis-1d (M points, julia parameters).
Run run_1d(const tk::Settings& extra, std::int64_t m = 100, const std::string& solver = "banded",
           const tk::Settings& solver_settings = {}) {
  auto model = tk::make_model("angiogenesis-1d", {{"M", m}});
  tk::Settings s = extra;
  if (!s.count("dt")) s["dt"] = 1.0;
  if (!s.count("steps")) s["steps"] = std::int64_t{1};
  auto integ = tk::make_integrator("imex-ark23", s);
  auto lin = tk::make_linear_solver(solver, solver_settings);
  Run run;
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &run.trace;
  ctx.timer = &timer;
  integ->run(*model, lin.get(), ctx);
  run.facts = integ->facts();
  return run;
}

}  // namespace

TEST_CASE("imex-ark23 in fixed steps is third order") {
  const double order = tk::measured_time_order("imex-ark23", {{"adaptive", false}});
  MESSAGE("order of imex-ark23 in fixed steps: " << order);
  CHECK(std::abs(order - 3.0) < 0.15);
}

TEST_CASE("imex-ark23: the error at t = 1 follows the tolerance") {
  const auto reference = run_1d({{"rtol", 1e-10}, {"atol", 1e-12}}).trace.state;
  std::vector<double> logs_tol, logs_err;
  std::int64_t steps_before = 0;
  for (double tol : {1e-4, 1e-5, 1e-6, 1e-7}) {
    const auto run = run_1d({{"rtol", tol}, {"atol", tol}});
    const double err = solvent::test::max_relative_difference(run.trace.state, reference);
    const auto steps = std::stoll(run.fact("accepted_steps"));
    MESSAGE("tol " << tol << ": error " << err << ", " << steps << " steps, "
                   << run.fact("rejected_steps") << " rejected");
    // The local error is held to the tolerance; the global one (relative, in the largest
    // component) lies 10 to 100 times above it, and tighter tolerances take more steps.
    CHECK(err < 100 * tol);
    CHECK(err > tol);
    CHECK(steps > steps_before);
    steps_before = steps;
    logs_tol.push_back(std::log(tol));
    logs_err.push_back(std::log(err));
  }
  // The slope of log(error) against log(tol) over three decades.
  const double slope = (logs_err.back() - logs_err.front()) / (logs_tol.back() - logs_tol.front());
  MESSAGE("error ~ tol^" << slope);
  CHECK(slope > 0.7);
  CHECK(slope < 1.3);
}

TEST_CASE("imex-ark23 rejects a first step too long for the initial step in C") {
  const auto run = run_1d({{"first_dt", 0.1}});
  const auto& rows = run.trace.rows;
  MESSAGE("rejected " << run.fact("rejected_steps") << ", accepted " << run.fact("accepted_steps")
                      << ", first accepted step " << rows.at(1).at("step_size"));
  CHECK(std::stoll(run.fact("rejected_steps")) >= 2);
  CHECK(rows.at(1).at("rejected_steps") >= 2.0);
  CHECK(rows.at(1).at("step_size") < 0.01);
  // Every accepted step kept the error within the tolerance, and the steps grew after.
  double largest = 0.0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CHECK(rows[i].at("error_estimate") <= 1.0);
    largest = std::max(largest, rows[i].at("step_size"));
  }
  CHECK(largest > 100 * rows.at(1).at("step_size"));
  // The same end as from the estimated first step, to the tolerance.
  const auto estimated = run_1d({});
  CHECK(solvent::test::max_relative_difference(run.trace.state, estimated.trace.state) < 1e-3);
  CHECK(std::stoll(estimated.fact("rejected_steps")) == 0);
}

TEST_CASE("imex-ark23 lands on every multiple of dt and reports each accepted step") {
  const auto run = run_1d({{"dt", 0.25}, {"steps", std::int64_t{4}}});
  const auto& infos = run.trace.infos;
  std::vector<double> stops;
  for (const auto& info : infos)
    if (std::fmod(info.t, 0.25) == 0.0) stops.push_back(info.t);
  CHECK(stops == std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0});
  CHECK(std::int64_t(infos.size()) == std::stoll(run.fact("accepted_steps")) + 1);
  for (std::size_t i = 1; i < infos.size(); ++i) {
    CHECK(infos[i].step == std::int64_t(i));
    CHECK(infos[i].t == doctest::Approx(infos[i - 1].t + infos[i].dt).epsilon(1e-12));
    CHECK(infos[i].total_steps == (i + 1 == infos.size() ? infos[i].step : 0));
  }
}

TEST_CASE("imex-ark23 follows the same steps with a direct and a Krylov solver") {
  const tk::Settings tol{{"rtol", 1e-6}, {"atol", 1e-6}};
  const auto banded = run_1d(tol, 60);
  const auto dense = run_1d(tol, 60, "lapack");
  const auto krylov =
      run_1d(tol, 60, "bicgstab", {{"tolerance", 1e-12}, {"initial_guess", std::string("given")}});
  CHECK(banded.fact("operator_form") == "banded");
  CHECK(krylov.fact("operator_form") == "csr");
  CHECK(solvent::test::max_relative_difference(dense.trace.state, banded.trace.state) < 1e-10);
  CHECK(solvent::test::max_relative_difference(krylov.trace.state, banded.trace.state) < 1e-8);
  CHECK(krylov.fact("accepted_steps") == banded.fact("accepted_steps"));
  // S is set up again only where the step changed (no step was rejected here): the set-ups
  // are the changes of step_size from row to row, and a growth below 1.5 kept the step, so
  // there are fewer of them than steps.
  REQUIRE(banded.fact("rejected_steps") == "0");
  const auto& rows = banded.trace.rows;
  std::int64_t changes = 1;
  for (std::size_t i = 2; i < rows.size(); ++i)
    changes += rows[i].at("step_size") != rows[i - 1].at("step_size");
  MESSAGE("banded: " << banded.fact("accepted_steps") << " steps, " << changes << " set-ups");
  CHECK(std::stoll(banded.fact("solver_setups")) == changes);
  CHECK(changes < std::stoll(banded.fact("accepted_steps")));
}

TEST_CASE("imex-ark23 stops at max_steps with a message instead of running on") {
  auto model = tk::make_model("angiogenesis-1d", {{"M", std::int64_t{50}}});
  auto integ = tk::make_integrator("imex-ark23", {{"rtol", 1e-9}, {"max_steps", std::int64_t{20}}});
  auto lin = tk::make_linear_solver("banded");
  Trace trace;
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &trace;
  ctx.timer = &timer;
  CHECK_THROWS_WITH_AS(integ->run(*model, lin.get(), ctx),
                       doctest::Contains("imex-ark23: 20 attempted steps (max_steps) did not "
                                         "reach t = 1"),
                       solvent::DivergenceError);
}
