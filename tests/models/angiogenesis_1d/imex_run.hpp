#pragma once
// Runs an IMEX integrator plugin on the angiogenesis-1d model plugin exactly as
// `solvent run` would (plugins loaded by name, settings checked against their schemas),
// keeping every state and observable so tests can compare whole trajectories.
#include <solvent/testkit.hpp>

#include <string>
#include <vector>

namespace angio1d_test {

using solvent::testkit::Settings;

struct Trajectory {
  std::vector<double> t;
  std::vector<std::vector<double>> states;  // states[k]: the state after step k (0: initial)
  std::vector<std::vector<solvent::Observable>> observables;
  std::shared_ptr<solvent::Model> model;
  solvent::Facts integrator_facts, solver_facts;

  const std::vector<double>& last() const { return states.back(); }
  double observable(std::size_t step, const std::string& name) const;
};

struct RunSpec {
  Settings model;
  std::string integrator = "imex-trapezoid";
  Settings integrator_settings;
  std::string solver = "banded";
  Settings solver_settings;
};

Trajectory run(const RunSpec& spec);
// The same, filling `traj` as the run goes, so what was reported survives a throw.
void run_into(const RunSpec& spec, Trajectory& traj);

// The value of one fact a plugin object recorded (FAILs if absent).
std::string fact(const solvent::Facts& facts, const std::string& key);

// max_i |a_i - b_i| / max_i |b_i|
double relative_difference(const std::vector<double>& a, const std::vector<double>& b);
// The same, maximised over every step of two trajectories of equal length.
double relative_difference(const Trajectory& a, const Trajectory& b);
// max_i |u_i - exact_i| against the model's exact_state at the last time.
double error_against_exact(const Trajectory& a);
// Least-squares slope of log(error) against log(step size).
double fitted_order(const std::vector<double>& sizes, const std::vector<double>& errors);

}  // namespace angio1d_test
