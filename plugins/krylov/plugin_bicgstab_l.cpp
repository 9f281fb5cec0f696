// The `bicgstab-l` plugin: the BicgstabL method in the CPU vector space.
#include <solvent_krylov/bicgstab_l.hpp>
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<solvent::krylov::KrylovSolver<
                   solvent::krylov::BicgstabL, solvent::krylov::HostSpace>>(
    "bicgstab-l", "1.0.0",
    "BiCGSTAB(l) (Sleijpen-Fokkema) for real and complex CSR, seven-point and matrix-free operators, on the CPU",
    &solvent::krylov::krylov_schema_with_degree)))
