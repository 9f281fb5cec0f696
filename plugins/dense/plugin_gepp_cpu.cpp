#include "cpu/gepp_cpu_solver.hpp"

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::boolean(
      "reuse_factorization", true,
      "Factor once per operator and only substitute per solve (the operator a solver is given "
      "never changes); false refactors on every solve, as De Luca 2025's CPU baseline does")};
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::dense::GeppCpuSolver>(
    "gepp-cpu", "1.0.0",
    "Dense Gaussian elimination with partial pivoting on the augmented matrix (De Luca et al.'s "
    "CPU baseline)",
    &schema))
