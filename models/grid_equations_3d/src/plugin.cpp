#include "grid_model.hpp"

SOLVENT_PLUGIN(solvent::describe_model<solvent::grid_equations::GridEquationsModel>(
    "grid-equations-3d", "1.0.0",
    "seven-point grid equations (seed 001): 3D Poisson or convection-diffusion, manufactured "
    "solution, optional basin mask",
    &solvent::grid_equations::grid_equations_schema))
