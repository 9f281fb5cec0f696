#pragma once
// Solvent::testkit — the conformance kit. Loads plugins by name exactly as `solvent run`
// does (same search path, same schema validation, same defaults) and checks any
// LinearSolver or Integrator plugin against the same properties.
//
// Plugins are found on SOLVENT_PLUGIN_PATH, then next to the core library.
#include <solvent/solvent.hpp>

#include <map>
#include <memory>
#include <string>

namespace solvent::testkit {

using Settings = std::map<std::string, ParamValue>;  // key -> value, as in a TOML section

// Create a plugin object; settings are validated against the plugin's schema (a bad key
// throws ConfigError) and the object keeps its library loaded for its whole lifetime.
std::shared_ptr<LinearSolver> make_linear_solver(const std::string& name, const Settings& s = {});
std::shared_ptr<Model> make_model(const std::string& name, const Settings& s = {});
std::shared_ptr<Integrator> make_integrator(const std::string& name, const Settings& s = {});

// True when `solver` could be set up, false when it threw DeviceUnavailable (a GPU
// plugin on a machine without a GPU); tests use it to report themselves skipped.
bool device_available(LinearSolver& solver);

// The conformance checks (doctest CHECKs inside; call from a TEST_CASE).
struct LinearSolverChecks {
  bool real = true;
  bool complex = false;
  OperatorKind kind = OperatorKind::Dense;  // which operator form the solver is fed
  bool direct = true;                       // direct solvers: backward error ~ machine epsilon
  double tolerance = 1e-10;                 // iterative solvers: relative residual asked for
  std::size_t n = 64;
};
void check_linear_solver(const std::string& name, const Settings& s, const LinearSolverChecks& c);

// Runs an ImexProblem-advancing integrator on a linear test problem u' = Lin u + N(u, t)
// with a known solution and returns the measured order of accuracy in dt.
double measured_time_order(const std::string& integrator, const Settings& s,
                           const std::string& solver = "lapack");

}  // namespace solvent::testkit
