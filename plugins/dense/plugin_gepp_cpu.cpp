#include "cpu/gepp_cpu_solver.hpp"

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::boolean(
      "reuse_factorization", false,
      "Factor once at setup and only substitute per solve (the paper refactors every solve)")};
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::dense::GeppCpuSolver>(
    "gepp-cpu", "1.0.0",
    "Dense Gaussian elimination with partial pivoting on the augmented matrix (De Luca et al.'s "
    "CPU baseline)",
    &schema))
