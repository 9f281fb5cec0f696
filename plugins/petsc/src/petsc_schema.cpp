#include "src/petsc_schema.hpp"

#include "petsc_type_names.hpp"

#include <fmt/format.h>

namespace solvent::petsc {

ParamSpec ksp_type_param() {
  return ParamSpec::string(
      "ksp_type", "gmres",
      fmt::format("PETSc's Krylov method (KSPType); this PETSc offers: {}", registered_ksp_types));
}

ParamSpec pc_type_param() {
  return ParamSpec::string(
      "pc_type", "ilu",
      fmt::format("PETSc's preconditioner (PCType); this PETSc offers: {}", registered_pc_types));
}

ParamSpec factor_solver_type_param() {
  return ParamSpec::string(
      "factor_solver_type", "",
      fmt::format("the factorisation package (MatSolverType) of pc_type lu, cholesky or ilu, "
                  "empty for PETSc's own; this PETSc has, on one process's matrix: {}",
                  factor_packages));
}

ParamSpec options_param(const char* whose) {
  return ParamSpec::string(
      "options", "",
      fmt::format("more PETSc options, as on PETSc's command line (\"-pc_factor_levels 2 "
                  "-pc_factor_mat_ordering_type rcm\"), given to this {} only; an option PETSc "
                  "does not use is warned about",
                  whose));
}

}  // namespace solvent::petsc
