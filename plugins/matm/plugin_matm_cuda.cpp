#include "cuda/matm_cuda_solver.hpp"

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_linear_solver<solvent::matm::cuda::MatmCudaSolver>(
        "matm-cuda", "1.1.0",
        "modified alternating-triangular method (Sukhinov et al.) on one GPU: pipelined "
        "triangular sweeps; over MPI ranks one GPU each, or some ranks on the CPU (device), "
        "sweeps pipelined over the ranks",
        &solvent::matm::cuda::matm_cuda_schema, "any")))
