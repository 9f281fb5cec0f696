// The `bicgstab-l-cuda` plugin: the BicgstabL method in the CUDA vector space.
#include <solvent_krylov/bicgstab_l.hpp>
#include <solvent_krylov/device_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_linear_solver<
        solvent::krylov::KrylovSolver<solvent::krylov::BicgstabL, solvent::krylov::DeviceSpace>>(
        "bicgstab-l-cuda", "1.0.0",
        "BiCGSTAB(l) (Sleijpen-Fokkema) for real and complex CSR and seven-point operators, on a "
        "CUDA device",
        &solvent::krylov::krylov_schema_with_degree, "cuda")))
