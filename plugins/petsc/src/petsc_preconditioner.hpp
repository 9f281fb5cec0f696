#pragma once
// PETSc's preconditioner (PC) behind Solvent's Preconditioner, for Solvent's own Krylov
// solvers: setup builds the AIJ matrix and the PC (PCSetUp), apply is PCApply on Solvent's
// host vectors lent to PETSc. Compiled twice, against Debian's real and complex PETSc, as the
// solver is.
#include "src/petsc_matrix.hpp"
#include "src/petsc_runtime.hpp"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent::petsc {

Schema petsc_pc_schema();

class PetscPreconditioner final : public Preconditioner {
 public:
  explicit PetscPreconditioner(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  // Also refresh's work (the default refresh_impl calls it): AijMatrix copies new values
  // into the matrix it holds where the pattern is the same, and PCSetUp then refactors
  // numerically only.
  void setup_impl(std::shared_ptr<const Operator> a) override;
  void apply_impl(std::span<const double> r, std::span<double> z) const override;
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override;

 private:
  void apply_scalar(std::span<const Scalar> r, std::span<Scalar> z) const;
  void make_pc(MPI_Comm comm);

  std::shared_ptr<spdlog::logger> log_;
  std::string pc_type_, factor_solver_type_;
  PrefixedOptions options_;  // `options`, under this preconditioner's prefix "solvent_pc_N_"

  MPI_Comm pc_comm_ = MPI_COMM_NULL;
  AijMatrix matrix_;
  mutable std::vector<Scalar> copy_;  // r, where the caller passes r and z as one vector
  mutable std::int64_t applications_ = 0;
  Owned<PC, PCDestroy> pc_;  // last, so destroyed first, before the matrix it was set up with
};

}  // namespace solvent::petsc
