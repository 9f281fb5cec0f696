// The descriptor of the gepp-cuda linear solver plugin.
#include "cuda/gepp_cuda_options.hpp"
#include "cuda/gepp_cuda_solver.hpp"

#include <solvent/plugin.hpp>

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::dense::GeppCudaSolver>(
    "gepp-cuda", "1.0.0",
    "Gaussian elimination with partial pivoting on a CUDA GPU (De Luca et al.: atomic-max pivot "
    "search, row swap, 2D elimination), with resident, reusing, graph and zero-block modes",
    &solvent::dense::gepp_cuda_schema, "cuda"))
