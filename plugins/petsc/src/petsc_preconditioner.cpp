#include "src/petsc_preconditioner.hpp"

#include "src/petsc_schema.hpp"

#include <fmt/format.h>

namespace solvent::petsc {

namespace {
std::string where() { return fmt::format("[preconditioner] (preconditioner '{}')", plugin_name()); }
}  // namespace

Schema petsc_pc_schema() {
  return {pc_type_param(), factor_solver_type_param(), options_param("preconditioner")};
}

PetscPreconditioner::PetscPreconditioner(const PluginContext& ctx)
    : log_(ctx.log),
      pc_type_(ctx.params.string("pc_type")),
      factor_solver_type_(ctx.params.string("factor_solver_type")),
      options_("solvent_pc_", ctx.params, where()) {
  ErrorScope scope;
  check_type(ctx.params, where(), "pc_type", PCList, "PC");
  make_pc(PETSC_COMM_SELF);
}

// The PC on `comm` with the keys and `options`: made in the constructor on this process
// alone, and again on MPI_COMM_WORLD the first time a stencil distributed over the ranks is
// set up (and back, for a matrix the process holds whole).
void PetscPreconditioner::make_pc(MPI_Comm comm) {
  check(PCCreate(comm, pc_.fresh()), "PCCreate");
  check(PCSetOptionsPrefix(pc_, options_.prefix().c_str()), "PCSetOptionsPrefix");
  set_pc_type(pc_, pc_type_, factor_solver_type_);
  options_.check_read(PCSetFromOptions(pc_), "PCSetFromOptions");
  pc_comm_ = comm;
}

std::vector<OperatorForm> PetscPreconditioner::forms() const {
  return {{OperatorKind::Csr, scalar_kind}, {OperatorKind::Stencil7, scalar_kind}};
}

void PetscPreconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  ErrorScope scope;
  const bool resized = matrix_.source() && rows_of(*matrix_.source()) != rows_of(*a);
  matrix_.take(std::move(a));
  if (pc_comm_ != matrix_.comm())
    make_pc(matrix_.comm());
  else if (resized)  // a PC set up keeps its sizes; PCReset keeps type and options
    check(PCReset(pc_), "PCReset");
  // PETSc 3.18's PCSetOperators takes no MatStructure: PCSetUp compares the matrix's nonzero
  // state with the one it was set up with, and refactors numerically only where the values
  // alone changed (a CSR matrix of the same pattern, AijMatrix::take).
  check(PCSetOperators(pc_, matrix_.mat(), matrix_.mat()), "PCSetOperators");
  check(PCSetUp(pc_), "PCSetUp");
  options_.check_used(log_, "[preconditioner]", fmt::format("pc_type '{}'", pc_type_));
}

// The core has checked r and z: this PETSc's scalar, the length of the operator set up.
void PetscPreconditioner::apply_scalar(std::span<const Scalar> r, std::span<Scalar> z) const {
  ErrorScope scope;
  const Scalar* in = r.data();
  // PCApply wants two vectors; triangular solves and the like cannot work in place.
  if (r.data() == z.data()) {
    copy_.assign(r.begin(), r.end());
    in = copy_.data();
  }
  PlacedArray placed_in(matrix_.in(), in), placed_out(matrix_.out(), z.data());
  check(PCApply(pc_, matrix_.in(), matrix_.out()), "PCApply");
  ++applications_;
}

// Only the scalar of this PETSc reaches its overload (forms() names no other); the other
// is the base class's.
#if defined(PETSC_USE_COMPLEX)
void PetscPreconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  Preconditioner::apply_impl(r, z);
}
void PetscPreconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  apply_scalar(r, z);
}
#else
void PetscPreconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  apply_scalar(r, z);
}
void PetscPreconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  Preconditioner::apply_impl(r, z);
}
#endif

Facts PetscPreconditioner::facts() const {
  Facts f = {{"petsc_version", petsc_version()},
             {"pc_type", pc_type_},
             {"matrix_builds", std::to_string(matrix_.builds())},
             {"value_updates", std::to_string(matrix_.value_updates())},
             {"applications", std::to_string(applications_)}};
  if (!factor_solver_type_.empty()) f.emplace_back("factor_solver_type", factor_solver_type_);
  // The type in use, where `options` chose another than the key (-pc_type).
  PCType in_use = nullptr;
  if (pc_ && PCGetType(pc_, &in_use) == 0 && in_use && pc_type_ != in_use)
    f.emplace_back("pc_type_in_use", in_use);
  options_.add_facts(f);
  return f;
}

}  // namespace solvent::petsc
