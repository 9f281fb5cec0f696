#pragma once
// Times IMEX steps of the angiogenesis-1d model as `solvent run` takes them: the model,
// integrator and linear solver are the plugins, loaded by name; an observer stamps the
// clock at every step it is shown, so the interval between two reports is exactly one
// step (explicit term, right-hand side, solve, checks, projection, observables) and the
// setup (assembly, a reused factorization) stays outside.
#include <solvent/plugin_factory.hpp>

#include <string>
#include <vector>

namespace imex_bench {

struct Backend {
  std::string label;   // as printed: "lapack+reuse"
  std::string solver;  // plugin name
  solvent::plugins::Settings settings;
  // The core's check of every direct solve (one product with the operator); off, the step
  // is what it cost before the core checked it.
  bool verify_residual = true;
};

struct StepTimes {
  std::vector<double> seconds;  // one per step
  std::vector<double> state_after_first_step;
  std::string operator_form;
};

// Runs `steps` trapezoid steps of dt = 0.01 on M grid points.
StepTimes time_steps(const Backend& backend, std::int64_t m, std::int64_t steps);

double median(std::vector<double> v);

}  // namespace imex_bench
