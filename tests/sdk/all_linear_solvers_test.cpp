// The conformance kit on every linear solver the registry finds: direct solvers (no
// tolerance in their schema) to machine precision, iterative ones at tolerance 1e-10, each
// on every operator form it says it accepts. GPU solvers without a device are named and
// skipped.
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
    const bool iterative = std::any_of(schema.begin(), schema.end(),
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
    // The kit tries every accepted form; here it is told only that one must exist.
    for (auto kind : {solvent::OperatorKind::Dense, solvent::OperatorKind::Csr,
                      solvent::OperatorKind::Banded, solvent::OperatorKind::Stencil7})
      if (probe->accepts(kind, solvent::ScalarKind::Real) ||
          probe->accepts(kind, solvent::ScalarKind::Complex)) {
        c.kind = kind;
        c.real = probe->accepts(kind, solvent::ScalarKind::Real);
        break;
      }
    for (const auto& problem : tk::linear_solver_problems(name, settings, c))
      FAIL_CHECK(name << ": " << problem);
  }
}
