// The `petsc-complex` plugin: PETSc's KSP and PC on complex CSR systems (Debian's complex
// PETSc, a separate library from the real one; both may be loaded in one process).
#include "src/petsc_solver.hpp"

const char* solvent::petsc::plugin_name() { return "petsc-complex"; }

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::petsc::PetscSolver>(
    "petsc-complex", "1.0.0",
    "PETSc's Krylov methods and preconditioners (KSP, PC; MUMPS) on complex systems, taken "
    "as CSR or seven-point, on one rank",
    &solvent::petsc::petsc_schema))
