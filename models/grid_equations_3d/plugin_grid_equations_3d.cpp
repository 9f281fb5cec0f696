#include "src/grid_model.hpp"

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_model<solvent::grid_equations_3d::GridEquationsModel>(
    "grid-equations-3d", "1.0.0",
    "seven-point grid equations (Sukhinov et al.): 3D Poisson or convection-diffusion, "
    "manufactured "
    "solution, optional basin mask",
    &solvent::grid_equations_3d::grid_equations_schema)))
