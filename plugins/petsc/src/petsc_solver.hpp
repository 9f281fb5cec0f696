#pragma once
// PETSc's KSP behind Solvent's LinearSolver. This file and petsc_solver.cpp are compiled
// twice, once against Debian's real PETSc and once against its complex one (PetscScalar is
// double or std::complex<double>); each plugin library links only its own libpetsc.
#include <solvent/solvent.hpp>

#include <petscksp.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace solvent::petsc {

using Scalar = PetscScalar;
#if defined(PETSC_USE_COMPLEX)
inline constexpr ScalarKind scalar_kind = ScalarKind::Complex;
#else
inline constexpr ScalarKind scalar_kind = ScalarKind::Real;
#endif

// The plugin's name ("petsc" or "petsc-complex"), for messages.
const char* plugin_name();
Schema petsc_schema();

class PetscSolver : public LinearSolver {
 public:
  explicit PetscSolver(const PluginContext& ctx);
  ~PetscSolver() override;
  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override;

 private:
  SolveStats solve_scalar(std::span<const Scalar> b, std::span<Scalar> x);
  // A CSR matrix into mat_: its values copied in where the pattern is the one held, else a
  // new matrix.
  void take_csr(const CsrMatrix<Scalar>& a);
  void build_matrix(const CsrMatrix<Scalar>& a);
  void release_matrix();
  void build_matrix(const Stencil7<Scalar>& a);
  void make_ksp(MPI_Comm comm);
  void check_options_used();
  static PetscErrorCode record_norm(KSP, PetscInt it, PetscReal norm, void* self);

  std::shared_ptr<spdlog::logger> log_;
  std::string ksp_type_, pc_type_, factor_solver_type_, options_;
  double rtol_, atol_;
  std::int64_t max_iterations_, restart_;
  bool initial_guess_given_;
  std::string prefix_;                      // this solver's options prefix, "solvent_N_"
  std::vector<std::string> option_names_;   // the names in `options`, prefixed
  std::vector<std::string> unused_options_; // those PETSc did not read at the first setup
  bool options_checked_ = false;

  KSP ksp_ = nullptr;
  MPI_Comm ksp_comm_ = MPI_COMM_NULL;
  Mat mat_ = nullptr;
  Vec vb_ = nullptr, vx_ = nullptr;
  std::shared_ptr<const Operator> op_;
  std::vector<double> history_;  // the monitored norm, by iteration number
  std::int64_t builds_ = 0, value_updates_ = 0, unchanged_setups_ = 0, solves_ = 0;
};

}  // namespace solvent::petsc
