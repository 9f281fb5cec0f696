// The `cg-cuda` plugin: the Cg method in the CUDA vector space.
#include <solvent_krylov/cg.hpp>
#include <solvent_krylov/device_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<
               solvent::krylov::KrylovSolver<solvent::krylov::Cg, solvent::krylov::DeviceSpace>>(
    "cg-cuda", "1.0.0",
    "conjugate gradients for Hermitian positive definite CSR and seven-point operators, on a "
    "CUDA device; the preconditioner must be Hermitian positive definite too",
    &solvent::krylov::krylov_schema, "cuda")))
