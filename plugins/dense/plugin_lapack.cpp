#include "cpu/lapack_solver.hpp"

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::boolean(
      "reuse_factorization", true,
      "Factor once per operator and only call getrs per solve; false refactors on every solve")};
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::dense::LapackSolver>(
    "lapack", "1.0.0", "LAPACK getrf/getrs through OpenBLAS: the dense reference solver", &schema))
