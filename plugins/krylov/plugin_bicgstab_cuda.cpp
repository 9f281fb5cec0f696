// The `bicgstab-cuda` plugin: the Bicgstab method in the CUDA vector space.
#include <solvent_krylov/bicgstab.hpp>
#include <solvent_krylov/device_space.hpp>
#include <solvent_krylov/krylov_solver.hpp>

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<solvent::krylov::KrylovSolver<
                   solvent::krylov::Bicgstab, solvent::krylov::DeviceSpace>>(
    "bicgstab-cuda", "1.0.0",
    "BiCGSTAB (van der Vorst) for real and complex CSR and seven-point operators, on a CUDA device",
    &solvent::krylov::krylov_schema, "cuda")))
