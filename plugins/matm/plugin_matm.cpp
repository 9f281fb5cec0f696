#include "cpu/matm_solver.hpp"

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::matm::MatmSolver>(
    "matm", "1.0.0",
    "modified alternating-triangular method (Sukhinov et al.) for seven-point grid equations, "
    "OpenMP",
    &solvent::matm::matm_schema))
