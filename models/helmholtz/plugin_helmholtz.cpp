#include "src/helmholtz_model.hpp"

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_model<solvent::helmholtz::HelmholtzModel>(
    "helmholtz", "1.0.0",
    "P1 finite elements for -lap u - k^2 u = 0 in a 3D cavity (built-in or gmsh mesh), complex "
    "symmetric CSR",
    &solvent::helmholtz::schema)))
