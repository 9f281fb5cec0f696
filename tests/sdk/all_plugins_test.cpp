// The conformance kit on every plugin the registry finds. Linear solvers: direct ones (no
// tolerance in their schema) to machine precision, iterative ones at tolerance 1e-10, on
// every operator form they declare and every form the core converts for them.
// Preconditioners: through BiCGSTAB of their device. Integrators: on the core's problem
// families they accept. Models: with their default settings. GPU plugins without a device are
// named and skipped.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <algorithm>

namespace tk = solvent::testkit;

TEST_CASE("every installed linear solver passes the conformance kit") {
  const auto names = tk::installed(solvent::PluginKind::LinearSolver);
  REQUIRE(names.size() >= 8);  // the CPU solvers alone: dense, banded, krylov, matm
  for (const auto& name : names) {
    CAPTURE(name);
    const auto schema = tk::schema_of(name, solvent::PluginKind::LinearSolver);
    const bool iterative =
        std::any_of(schema.begin(), schema.end(),
                    [](const solvent::ParamSpec& p) { return p.name == "tolerance"; });
    tk::Settings settings;
    tk::LinearSolverChecks c;
    c.direct = !iterative;
    if (iterative) settings["tolerance"] = c.tolerance;
    auto probe = tk::make_linear_solver(name, settings);
    if (!tk::device_available(*probe)) {
      MESSAGE(name << ": skipped, no device");
      continue;
    }
    // The kit tries every declared form; here it is told only that the first must work.
    const auto first = probe->forms().front();
    c.kind = first.kind;
    c.real = first.scalar == solvent::ScalarKind::Real;
    std::vector<std::string> notes;
    for (const auto& problem : tk::linear_solver_problems(name, settings, c, &notes))
      FAIL_CHECK(name << ": " << problem);
    for (const auto& note : notes) MESSAGE(name << ": " << note);
  }
}

TEST_CASE("every installed preconditioner passes the conformance kit") {
  const auto names = tk::installed(solvent::PluginKind::Preconditioner);
  REQUIRE(names.size() >= 2);  // jacobi and ilu0 on the CPU
  for (const auto& name : names) {
    CAPTURE(name);
    try {
      for (const auto& problem : tk::preconditioner_problems(name))
        FAIL_CHECK(name << ": " << problem);
    } catch (const solvent::DeviceUnavailable&) {
      MESSAGE(name << ": skipped, no device");
    }
  }
}

TEST_CASE("every installed integrator passes the conformance kit") {
  const auto names = tk::installed(solvent::PluginKind::Integrator);
  REQUIRE(names.size() >= 3);
  int judged = 0;
  for (const auto& name : names) {
    CAPTURE(name);
    std::string skipped;
    // An adaptive integrator's order in dt is that of its fixed steps.
    const auto schema = tk::schema_of(name, solvent::PluginKind::Integrator);
    tk::Settings settings;
    if (std::any_of(schema.begin(), schema.end(),
                    [](const solvent::ParamSpec& p) { return p.name == "adaptive"; }))
      settings["adaptive"] = false;
    for (const auto& problem : tk::integrator_problems(name, settings, skipped))
      FAIL_CHECK(name << ": " << problem);
    if (skipped.empty())
      ++judged;
    else
      MESSAGE(name << ": " << skipped);
  }
  CHECK(judged >= 3);  // imex-trapezoid, imex-cnab2, steady
}

TEST_CASE("every installed model passes the conformance kit") {
  const auto names = tk::installed(solvent::PluginKind::Model);
  REQUIRE(names.size() >= 5);
  for (const auto& name : names) {
    CAPTURE(name);
    // matrix-file has no default matrix: it is given one of the test data.
    tk::Settings settings;
    if (name == "matrix-file") settings["matrix"] = std::string(SDK_MATRIX_FILE);
    tk::check_model(name, settings);
  }
  // The one shipped model with an exact state in time: its manufactured solution must be the
  // initial state and solve its own equation (to the truncation error of its grid).
  tk::check_model("angiogenesis-1d", {{"mode", std::string("manufactured")}});
}
