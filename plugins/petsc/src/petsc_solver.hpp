#pragma once
// PETSc's KSP behind Solvent's LinearSolver. This file and petsc_solver.cpp are compiled
// twice, once against Debian's real PETSc and once against its complex one (PetscScalar is
// double or std::complex<double>); each plugin library links only its own libpetsc.
#include "src/petsc_matrix.hpp"
#include "src/petsc_runtime.hpp"

#include <petscksp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace solvent::petsc {

Schema petsc_schema();

class PetscSolver : public LinearSolver {
 public:
  explicit PetscSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override;

 private:
  SolveStats solve_scalar(std::span<const Scalar> b, std::span<Scalar> x);
  void make_ksp(MPI_Comm comm);
  static PetscErrorCode record_norm(KSP, PetscInt it, PetscReal norm, void* self);

  std::shared_ptr<spdlog::logger> log_;
  std::string ksp_type_, pc_type_, factor_solver_type_;
  double rtol_, atol_;
  std::int64_t max_iterations_, restart_;
  bool initial_guess_given_;
  PrefixedOptions options_;  // `options`, under this solver's prefix "solvent_N_"

  MPI_Comm ksp_comm_ = MPI_COMM_NULL;
  AijMatrix matrix_;
  std::vector<double> history_;  // the monitored norm, by iteration number
  std::int64_t unchanged_setups_ = 0, solves_ = 0;
  // Last, so destroyed first: before the matrix it was set up with and the history its
  // monitor writes.
  Owned<KSP, KSPDestroy> ksp_;
};

}  // namespace solvent::petsc
