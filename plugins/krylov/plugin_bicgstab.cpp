// The `bicgstab` plugin: the Bicgstab method in the CPU vector space.
#include <solvent_krylov/bicgstab.hpp>
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_linear_solver<
        solvent::krylov::KrylovSolver<solvent::krylov::Bicgstab, solvent::krylov::HostSpace>>(
        "bicgstab", "1.0.0",
        "BiCGSTAB (van der Vorst) for real and complex CSR, seven-point and matrix-free operators, on the CPU",
        &solvent::krylov::krylov_schema)))
