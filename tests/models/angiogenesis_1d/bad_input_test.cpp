// Bad input at the plugin level: the schema refuses M < 3 and dt <= 0 with messages that
// name the key and the bound; a blow-up of the explicit step is a DivergenceError naming
// the step, the species and the place, after every earlier step was reported.
// (The `solvent` command's handling of the same — exit code, files kept — is tested in
// tests/apps/solvent.)
#include "imex_run.hpp"

#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <regex>

using namespace angio1d_test;

namespace {
std::string config_problem(auto make) {
  try {
    make();
  } catch (const solvent::ConfigError& e) {
    REQUIRE(e.problems().size() == 1);
    return e.problems()[0];
  }
  FAIL("no ConfigError");
  return {};
}
}  // namespace

TEST_CASE("M < 3 and dt <= 0 are refused by the schemas") {
  using solvent::testkit::make_integrator;
  using solvent::testkit::make_model;
  CHECK(config_problem([] {
          make_model("angiogenesis-1d", {{"M", std::int64_t(2)}});
        }).ends_with("key 'M' value 2 must be >= 3"));
  for (const std::string integrator : {"imex-trapezoid", "imex-cnab2"})
    for (double dt : {0.0, -0.01}) {
      CAPTURE(integrator);
      CAPTURE(dt);
      const auto problem = config_problem([&] { make_integrator(integrator, {{"dt", dt}}); });
      CHECK(problem.find("key 'dt' value") != std::string::npos);
      CHECK(problem.ends_with("must be > 0"));
    }
  CHECK(config_problem([] {
          make_model("angiogenesis-1d", {{"mode", std::string("manufacture")}});
        }).find("mode") != std::string::npos);
}

TEST_CASE("a blow-up names the step, the species and x; earlier steps were all reported") {
  for (const std::string integrator : {"imex-trapezoid", "imex-cnab2"}) {
    CAPTURE(integrator);
    RunSpec spec;
    spec.model = {{"M", std::int64_t(50)}};
    spec.integrator = integrator;
    spec.integrator_settings = {{"dt", 1.0}, {"steps", std::int64_t(100)}, {"projection", false}};
    std::string message;
    Trajectory traj;
    try {
      run_into(spec, traj);
    } catch (const solvent::DivergenceError& e) {
      message = e.what();
    }
    MESSAGE(message);
    std::smatch match;
    REQUIRE(std::regex_search(
        message, match,
        std::regex(integrator +
                   ": .* non-finite at step ([0-9]+) \\(t = [-0-9.e+]+\\): "
                   "([CPIF]) = -?(inf|nan) at x = [0-9.e-]+ \\(grid point [0-9]+\\)")));
    // The model's page quotes the trapezoid's.
    if (integrator == "imex-trapezoid") {
      const auto quoted = solvent::test::quoted_text(MODEL_DOC, "DivergenceError \"…", "…");
      CHECK_MESSAGE(message.find(quoted) != std::string::npos, "the page quotes: " << quoted);
    }
    const int step = std::stoi(match[1]);
    CHECK(step > 1);
    CHECK(message.ends_with("Output up to step " + std::to_string(step - 1) + " is kept."));
    CHECK(traj.states.size() == std::size_t(step));  // steps 0 .. step - 1
    for (const auto& u : traj.states)
      for (double v : u) REQUIRE(std::isfinite(v));
  }
}
