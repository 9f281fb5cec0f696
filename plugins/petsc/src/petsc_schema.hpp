#pragma once
// The parameters the package's plugins share, described with the types and factorisation
// packages this PETSc build offers (petsc_type_names.hpp, generated from its live registry
// by src/registry_probe.cpp while the package is built).
#include <solvent/parameters.hpp>

namespace solvent::petsc {

ParamSpec ksp_type_param();
ParamSpec pc_type_param();
ParamSpec factor_solver_type_param();
// More options for one object (`whose`: "solver", "preconditioner").
ParamSpec options_param(const char* whose);

}  // namespace solvent::petsc
