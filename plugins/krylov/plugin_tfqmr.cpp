// The `tfqmr` plugin: the Tfqmr method in the CPU vector space.
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>
#include <solvent_krylov/tfqmr.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<
               solvent::krylov::KrylovSolver<solvent::krylov::Tfqmr, solvent::krylov::HostSpace>>(
    "tfqmr", "1.0.0",
    "TFQMR (Freund) for real and complex CSR, seven-point and matrix-free operators, on the CPU",
    &solvent::krylov::krylov_schema)))
