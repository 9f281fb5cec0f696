#include "cpu/matm_solver.hpp"

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<solvent::matm::MatmSolver>(
    "matm", "1.1.0",
    "modified alternating-triangular method (Sukhinov et al.) for seven-point grid equations, "
    "OpenMP, over MPI ranks with pipelined sweeps",
    &solvent::matm::matm_schema)))
