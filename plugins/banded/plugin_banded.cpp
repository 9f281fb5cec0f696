#include "src/banded_solver.hpp"

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::boolean("reuse_factorization", true,
                                      "Factor once at setup and only substitute per solve (false: "
                                      "factor on every solve, as De Luca 2025 refactors)")};
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::banded::BandedSolver>(
    "banded", "1.0.0",
    "banded LU with partial pivoting (gbtrf's algorithm) and substitution: the fast path for the "
    "1D IMEX step",
    &schema))
