// The `petsc-pc` plugin: a PETSc preconditioner (PC) for Solvent's own Krylov solvers, real
// scalars (Debian's real PETSc: hypre's BoomerAMG, MUMPS).
#include "src/petsc_preconditioner.hpp"

const char* solvent::petsc::plugin_name() { return "petsc-pc"; }

// Over several ranks on a seven-point operator distributed by its model (an MPIAIJ matrix,
// each rank its own rows; PCApply is collective, as the Krylov solvers' steps are).
SOLVENT_PLUGIN(solvent::distributed(
    solvent::describe_preconditioner<solvent::petsc::PetscPreconditioner>(
        "petsc-pc", "1.0.0",
        "A PETSc preconditioner by name (PC: hypre's BoomerAMG, gamg, ilu, asm, lu with MUMPS, "
        "...) for Solvent's Krylov solvers, real scalars, from CSR or seven-point (over MPI "
        "ranks: its blocks as one MPIAIJ matrix)",
        &solvent::petsc::petsc_pc_schema)))
