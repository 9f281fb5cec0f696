#include "src/banded_solver.hpp"

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::boolean("reuse_factorization", true,
                                      "Factor once at setup and only call gbtrs per solve (false: "
                                      "gbtrf on every solve, as De Luca 2025 refactors)")};
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::banded::BandedSolver>(
    "banded", "1.0.0",
    "LAPACK banded LU with partial pivoting (gbtrf/gbtrs): the fast path for the 1D IMEX step",
    &schema))
