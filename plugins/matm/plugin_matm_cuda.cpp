#include "cuda/matm_cuda_solver.hpp"

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::matm::cuda::MatmCudaSolver>(
    "matm-cuda", "1.0.0",
    "modified alternating-triangular method (Sukhinov et al.) on one GPU: pipelined triangular "
    "sweeps",
    &solvent::matm::cuda::matm_cuda_schema, "cuda"))
