#include "src/petsc_solver.hpp"

#include "src/petsc_schema.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace solvent::petsc {

namespace {
std::string where() { return fmt::format("[linear_solver] (linear solver '{}')", plugin_name()); }

const char* norm_name(KSPNormType norm) {
  switch (norm) {
    case KSP_NORM_PRECONDITIONED:
      return "preconditioned";
    case KSP_NORM_UNPRECONDITIONED:
      return "unpreconditioned";
    case KSP_NORM_NATURAL:
      return "natural";
    default:
      return "none";
  }
}
}  // namespace

Schema petsc_schema() {
  return {
      ksp_type_param(),
      pc_type_param(),
      ParamSpec::real("tolerance", 1e-8,
                      "relative tolerance (KSP rtol, in the norm the KSP monitors; a solve whose true "
                      "relative residual is above 10 times it is not converged)")
          .above(0.0),
      ParamSpec::real("atol", 1e-50, "absolute tolerance (KSP atol)").at_least(0.0),
      ParamSpec::integer("max_iterations", 1000, "iterations before giving up (KSP max_it)")
          .at_least(1),
      ParamSpec::integer("restart", 30, "restart length of gmres, fgmres and lgmres").at_least(1),
      factor_solver_type_param(),
      ParamSpec::choice("initial_guess", "zero", {"zero", "given"},
                        "zero, or given: start from the x passed to solve()"),
      options_param("solver"),
  };
}

PetscSolver::PetscSolver(const PluginContext& ctx)
    : log_(ctx.log),
      ksp_type_(ctx.params.string("ksp_type")),
      pc_type_(ctx.params.string("pc_type")),
      factor_solver_type_(ctx.params.string("factor_solver_type")),
      rtol_(ctx.params.real("tolerance")),
      atol_(ctx.params.real("atol")),
      max_iterations_(ctx.params.integer("max_iterations")),
      restart_(ctx.params.integer("restart")),
      initial_guess_given_(ctx.params.string("initial_guess") == "given"),
      options_("solvent_", ctx.params, where()) {
  ErrorScope scope;
  check_type(ctx.params, where(), "ksp_type", KSPList, "KSP");
  check_type(ctx.params, where(), "pc_type", PCList, "PC");
  make_ksp(PETSC_COMM_SELF);
}

// The KSP on `comm` with every setting of the keys and `options`: made in the constructor on
// this process alone, and again on MPI_COMM_WORLD the first time a stencil distributed over
// the ranks is set up.
void PetscSolver::make_ksp(MPI_Comm comm) {
  check(KSPCreate(comm, ksp_.fresh()), "KSPCreate");
  check(KSPSetOptionsPrefix(ksp_, options_.prefix().c_str()), "KSPSetOptionsPrefix");
  check(KSPSetType(ksp_, ksp_type_.c_str()), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(ksp_, &pc), "KSPGetPC");
  set_pc_type(pc, pc_type_, factor_solver_type_);
  check(KSPSetTolerances(ksp_, rtol_, atol_, PETSC_DEFAULT, static_cast<PetscInt>(max_iterations_)),
        "KSPSetTolerances");
  check(KSPGMRESSetRestart(ksp_, static_cast<PetscInt>(restart_)), "KSPGMRESSetRestart");
  check(KSPSetInitialGuessNonzero(ksp_, initial_guess_given_ ? PETSC_TRUE : PETSC_FALSE),
        "KSPSetInitialGuessNonzero");
  // The residual history through a monitor, by iteration number: KSPSetResidualHistory's
  // array gets an extra entry at every gmres restart (the new cycle logs its starting norm
  // again), a monitor is called with the iteration number, so a restart overwrites its entry.
  check(KSPMonitorSet(ksp_, &PetscSolver::record_norm, this, nullptr), "KSPMonitorSet");
  options_.check_read(KSPSetFromOptions(ksp_), "KSPSetFromOptions");
  ksp_comm_ = comm;
}

std::vector<OperatorForm> PetscSolver::forms() const {
  return {{OperatorKind::Csr, scalar_kind}, {OperatorKind::Stencil7, scalar_kind}};
}

// Setting up again (an IMEX integrator hands a new operator when dt changes):
// - the same operator object: nothing to do (an operator never changes while in use);
// - a CSR matrix of the same size and nonzero pattern: the values are copied into the
//   existing PETSc matrix and KSPSetOperators tells the PC, which refactors numerically
//   and keeps its symbolic analysis (ilu, lu, mumps);
// - anything else: a new matrix, with the same KSP and PC objects (a new KSP, with the same
//   settings, where the matrix moves between this process and the ranks).
void PetscSolver::setup_impl(std::shared_ptr<const Operator> op) {
  if (matrix_.source() && op.get() == matrix_.source().get()) {
    ++unchanged_setups_;
    return;
  }
  ErrorScope scope;
  // A matrix of another size: the KSP forgets its work vectors and the PC its setup
  // (KSPReset keeps the types, tolerances and options).
  const bool resized = matrix_.source() && rows_of(*matrix_.source()) != rows_of(*op);
  matrix_.take(std::move(op));
  if (ksp_comm_ != matrix_.comm())
    make_ksp(matrix_.comm());
  else if (resized)
    check(KSPReset(ksp_), "KSPReset");
  check(KSPSetOperators(ksp_, matrix_.mat(), matrix_.mat()), "KSPSetOperators");
  check(KSPSetUp(ksp_), "KSPSetUp (the preconditioner's setup)");
  options_.check_used(log_, "[linear_solver]",
                      fmt::format("ksp_type '{}', pc_type '{}'", ksp_type_, pc_type_));
}

PetscErrorCode PetscSolver::record_norm(KSP, PetscInt it, PetscReal norm, void* self) {
  auto* solver = static_cast<PetscSolver*>(self);
  auto& h = solver->history_;
  const auto k = static_cast<std::size_t>(it);
  if (h.size() <= k) h.resize(k + 1, norm);
  h[k] = norm;
  // Relative to the initial norm, as the history is recorded.
  if (h[0] > 0) solver->report_iteration(it, double(norm) / double(h[0]));
  return 0;
}

SolveStats PetscSolver::solve_scalar(std::span<const Scalar> b, std::span<Scalar> x) {
  history_.clear();
  ErrorScope scope;
  PetscReal b_norm = 0;
  {
    PlacedArray in(matrix_.in(), b.data()), out(matrix_.out(), x.data());
    check(KSPSolve(ksp_, matrix_.in(), matrix_.out()), "KSPSolve");
    check(VecNorm(matrix_.in(), NORM_2, &b_norm), "VecNorm");
  }
  ++solves_;

  SolveStats st;
  PetscInt its = 0;
  check(KSPGetIterationNumber(ksp_, &its), "KSPGetIterationNumber");
  KSPConvergedReason reason = KSP_CONVERGED_ITERATING;
  check(KSPGetConvergedReason(ksp_, &reason), "KSPGetConvergedReason");
  st.iterations = its;
  st.converged = reason > 0;
  if (reason > 0) {
    st.status = "converged";
  } else if (reason == KSP_DIVERGED_ITS) {
    st.status = "max_iterations";
  } else {
    const char* name = nullptr;
    KSPGetConvergedReasonString(ksp_, &name);
    st.status = fmt::format("breakdown: {}", name ? name : "unknown reason");
  }
  // The true relative residual of the returned x, not the KSP's (preconditioned) norm.
  st.residual =
      relative_residual(*matrix_.source(), b, std::span<const Scalar>(x.data(), x.size()));
  // PETSc stops on its own norm, for a left-preconditioned method the preconditioned
  // residual, which a poor preconditioner can make small while b - A x is not. A solve it
  // calls converged whose true residual passes the tolerances (as in effect, options
  // included) by more than a factor of 10 is not reported as a solution.
  if (st.converged) {
    PetscReal rtol = 0, abstol = 0, dtol = 0;
    PetscInt max_its = 0;
    check(KSPGetTolerances(ksp_, &rtol, &abstol, &dtol, &max_its), "KSPGetTolerances");
    const double allowed =
        10.0 * std::max(double(rtol), b_norm > 0 ? double(abstol) / double(b_norm) : 0.0);
    if (st.residual > allowed) {
      KSPNormType norm = KSP_NORM_DEFAULT;
      check(KSPGetNormType(ksp_, &norm), "KSPGetNormType");
      st.converged = false;
      st.status = fmt::format(
          "PETSc reported convergence ({} norm), but the true relative residual {:.3e} is "
          "more than 10 times the tolerance ({:.1e}); options = \"-ksp_norm_type "
          "unpreconditioned\" stops on the true one",
          norm_name(norm), st.residual, allowed / 10.0);
    }
  }

  // The history in the norm the KSP monitors (the preconditioned residual for a left-
  // preconditioned method, as gmres and cg are by default), relative to its initial value;
  // an iteration a method did not report (none known) repeats the entry before it.
  const auto want = static_cast<std::size_t>(its) + 1;
  if (!history_.empty() && history_[0] > 0)
    for (std::size_t k = 0; k < want; ++k)
      st.residual_history.push_back(history_[std::min(k, history_.size() - 1)] / history_[0]);
  return st;
}

// Only the scalar of this PETSc reaches its overload (forms() names no other); the other
// is the base class's.
#if defined(PETSC_USE_COMPLEX)
SolveStats PetscSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return LinearSolver::solve_impl(b, x);
}
SolveStats PetscSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return solve_scalar(b, x);
}
#else
SolveStats PetscSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  return solve_scalar(b, x);
}
SolveStats PetscSolver::solve_impl(std::span<const complex> b, std::span<complex> x) {
  return LinearSolver::solve_impl(b, x);
}
#endif

Facts PetscSolver::facts() const {
  Facts f = {{"petsc_version", petsc_version()},
             {"ksp_type", ksp_type_},
             {"pc_type", pc_type_},
             {"matrix_builds", std::to_string(matrix_.builds())},
             {"value_updates", std::to_string(matrix_.value_updates())},
             {"unchanged_setups", std::to_string(unchanged_setups_)},
             {"solves", std::to_string(solves_)}};
  // The types in use, where `options` chose others than the keys (-ksp_type, -pc_type).
  KSPType ksp_in_use = nullptr;
  PCType pc_in_use = nullptr;
  PC pc = nullptr;
  if (ksp_ && KSPGetType(ksp_, &ksp_in_use) == 0 && ksp_in_use && ksp_type_ != ksp_in_use)
    f.emplace_back("ksp_type_in_use", ksp_in_use);
  if (ksp_ && KSPGetPC(ksp_, &pc) == 0 && PCGetType(pc, &pc_in_use) == 0 && pc_in_use &&
      pc_type_ != pc_in_use)
    f.emplace_back("pc_type_in_use", pc_in_use);
  options_.add_facts(f);
  return f;
}

}  // namespace solvent::petsc
