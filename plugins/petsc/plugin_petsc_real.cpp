// The `petsc` plugin: PETSc's KSP and PC on real CSR systems (Debian's real PETSc).
#include "src/petsc_solver.hpp"

const char* solvent::petsc::plugin_name() { return "petsc"; }

// Over several ranks on a seven-point operator distributed by its model (an MPIAIJ matrix,
// each rank its own rows).
SOLVENT_PLUGIN(solvent::distributed(solvent::describe_linear_solver<solvent::petsc::PetscSolver>(
    "petsc", "1.0.0",
    "PETSc's Krylov methods and preconditioners (KSP, PC; hypre, MUMPS) on real systems, "
    "taken as CSR or seven-point (over MPI ranks: its blocks as one MPIAIJ matrix)",
    &solvent::petsc::petsc_schema)))
