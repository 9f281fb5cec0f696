// The descriptor of the jacobi preconditioner plugin.
#include "cpu/jacobi_preconditioner.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema schema() { return {}; }
}  // namespace

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_preconditioner<solvent::jacobi::JacobiPreconditioner>(
    "jacobi", "1.0.0",
    "Jacobi (diagonal) preconditioner, z = r ./ diag(A), from any assembled storage", &schema)))
