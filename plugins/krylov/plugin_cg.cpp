// The `cg` plugin: the Cg method in the CPU vector space.
#include <solvent_krylov/cg.hpp>
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<
               solvent::krylov::KrylovSolver<solvent::krylov::Cg, solvent::krylov::HostSpace>>(
    "cg", "1.0.0",
    "conjugate gradients for Hermitian positive definite operators (CSR, seven-point, "
    "matrix-free), on the CPU; the preconditioner must be Hermitian positive definite too",
    &solvent::krylov::krylov_schema)))
