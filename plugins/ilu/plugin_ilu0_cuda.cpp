// The descriptor of the ilu0-cuda preconditioner plugin.
#include "cuda/ilu0_cuda_preconditioner.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema schema() { return {}; }
}  // namespace

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_preconditioner<solvent::ilu::Ilu0CudaPreconditioner>(
        "ilu0-cuda", "1.0.0",
        "ILU(0) on a CUDA GPU: ilu0's factors kept resident, the two triangular solves by "
        "cuSPARSE SpSV; refresh refactors on the host and updates the values only; over ranks "
        "block Jacobi (each rank's "
        "diagonal block)",
        &schema, "cuda")))
