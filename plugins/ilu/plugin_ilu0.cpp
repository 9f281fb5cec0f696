// The descriptor of the ilu0 preconditioner plugin.
#include "cpu/ilu0_preconditioner.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema schema() {
  return {solvent::ParamSpec::integer(
              "overlap", 0,
              "over several ranks: 0 factors each rank's diagonal block (block Jacobi); n > 0 "
              "grows each rank's rows by n layers of its neighbours' rows and keeps the result "
              "on its own rows (restricted additive Schwarz)")
              .at_least(0)
              .at_most(8)};
}
}  // namespace

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_preconditioner<solvent::ilu::Ilu0Preconditioner>(
    "ilu0", "1.0.0",
    "ILU(0): incomplete LU on the CSR operator's own pattern, forward and backward "
    "substitution per apply; refresh refactors in place; over ranks block Jacobi or, with "
    "overlap, restricted additive Schwarz",
    &schema)))
