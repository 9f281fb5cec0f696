// The `petsc` plugin: PETSc's KSP and PC on real CSR systems (Debian's real PETSc).
#include "src/petsc_solver.hpp"

const char* solvent::petsc::plugin_name() { return "petsc"; }

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::petsc::PetscSolver>(
    "petsc", "1.0.0",
    "PETSc's Krylov methods and preconditioners (KSP, PC; hypre, MUMPS) on real systems, "
    "taken as CSR",
    &solvent::petsc::petsc_schema))
