// The `tfqmr-cuda` plugin: the Tfqmr method in the CUDA vector space.
#include <solvent_krylov/device_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>
#include <solvent_krylov/tfqmr.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<
               solvent::krylov::KrylovSolver<solvent::krylov::Tfqmr, solvent::krylov::DeviceSpace>>(
    "tfqmr-cuda", "1.0.0",
    "TFQMR (Freund) for real and complex CSR and seven-point operators, on a CUDA device",
    &solvent::krylov::krylov_schema, "cuda")))
