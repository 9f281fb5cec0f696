// The descriptor of the jacobi-cuda preconditioner plugin.
#include "cuda/jacobi_cuda_preconditioner.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema schema() { return {}; }
}  // namespace

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_preconditioner<solvent::jacobi::JacobiCudaPreconditioner>(
    "jacobi-cuda", "1.0.0",
    "Jacobi (diagonal) preconditioner on a CUDA GPU: the inverse diagonal resident, one kernel "
    "per apply, on CSR or seven-point operators",
    &schema, "cuda")))
