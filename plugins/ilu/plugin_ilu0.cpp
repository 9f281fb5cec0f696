// The descriptor of the ilu0 preconditioner plugin.
#include "cpu/ilu0_preconditioner.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema schema() { return {}; }
}  // namespace

SOLVENT_PLUGIN(solvent::describe_preconditioner<solvent::ilu::Ilu0Preconditioner>(
    "ilu0", "1.0.0",
    "ILU(0): incomplete LU on the CSR operator's own pattern, forward and backward "
    "substitution per apply; refresh refactors in place",
    &schema))
