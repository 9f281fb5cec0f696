// The `petsc-pc-complex` plugin: a PETSc preconditioner (PC) for Solvent's own Krylov
// solvers on complex systems (Debian's complex PETSc: MUMPS, no hypre).
#include "src/petsc_preconditioner.hpp"

const char* solvent::petsc::plugin_name() { return "petsc-pc-complex"; }

SOLVENT_PLUGIN(solvent::describe_preconditioner<solvent::petsc::PetscPreconditioner>(
    "petsc-pc-complex", "1.0.0",
    "A PETSc preconditioner by name (PC: ilu, asm, lu with MUMPS, ...) for Solvent's Krylov "
    "solvers, complex scalars, from CSR or seven-point, on one rank",
    &solvent::petsc::petsc_pc_schema))
