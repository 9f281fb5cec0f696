#include "src/petsc_solver.hpp"

#include "petsc_type_names.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <sstream>

namespace solvent::petsc {

namespace {

// PETSc's error handler: keep the first message of a failing call (PETSc's own words, which
// name the type or option at fault) and return the code, printing nothing.
thread_local std::string last_error;

PetscErrorCode keep_message(MPI_Comm, int, const char* fun, const char*, PetscErrorCode n,
                            PetscErrorType p, const char* mess, void*) {
  if (p == PETSC_ERROR_INITIAL)
    last_error = fmt::format("{} (in {})", mess && *mess ? mess : "error", fun ? fun : "?");
  return n;
}

void check(PetscErrorCode code, const char* what) {
  if (code == 0) return;
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  std::string detail = last_error.empty() ? (text ? text : "") : last_error;
  last_error.clear();
  throw SolverError(fmt::format("{}: {} failed: {}", plugin_name(), what, detail));
}

// PETSc starts once per plugin library (each library has its own PETSc), the first time a
// solver is made — never to describe or list the plugin, which must not start MPI.
//
// Under mpirun the core has started MPI before any plugin object is made, and PETSc uses
// it as it is. Without mpirun MPI is not started by the core, so PetscInitialize starts it
// (a singleton MPI_Init) — once: the second PETSc of the process (`petsc` beside
// `petsc-complex`) finds MPI started and leaves it alone.
//
// PetscFinalize is never called, on purpose. It would free what solver objects still hold
// if they outlive it, it would call MPI_Finalize where this PETSc began MPI while the other
// PETSc of the process still uses it, and under mpirun it would have to run before the
// core's MPI_Finalize at the end of main, which a library cannot order. Not finalising
// costs nothing a run sees: PETSc's memory is the process's, returned at exit, and an MPI
// begun as a singleton by PETSc ends with the process (OpenMPI says nothing about it).
void start_petsc() {
  static std::once_flag once;
  std::call_once(once, [] {
    PetscBool started = PETSC_FALSE;
    PetscInitialized(&started);
    if (started) return;
    // Solvent handles signals itself (a run ended by SIGINT still writes its results).
    PetscOptionsSetValue(nullptr, "-no_signal_handler", nullptr);
    if (PetscInitializeNoArguments() != 0)
      throw SolverError(fmt::format("{}: PetscInitialize failed", plugin_name()));
    PetscPushErrorHandler(keep_message, nullptr);
    check(KSPInitializePackage(), "KSPInitializePackage");
    check(PCInitializePackage(), "PCInitializePackage");
  });
}

std::vector<std::string> names_of(PetscFunctionList list) {
  const char** names = nullptr;
  int n = 0;
  check(PetscFunctionListGet(list, &names, &n), "PetscFunctionListGet");
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)  // PETSc 3.18 counts the array's closing null in n
    if (names[i]) out.emplace_back(names[i]);
  PetscFree(names);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void check_type(const std::string& key, const std::string& value, PetscFunctionList list,
                const char* what) {
  const auto names = names_of(list);
  if (std::find(names.begin(), names.end(), value) != names.end()) return;
  throw ConfigError({fmt::format("[linear_solver] (linear solver '{}'): {} '{}' is not a {} type "
                                 "of this PETSc ({}.{}.{}); it offers: {}",
                                 plugin_name(), key, value, what, PETSC_VERSION_MAJOR,
                                 PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR,
                                 fmt::join(names, ", "))});
}

std::atomic<int> solver_count{0};

}  // namespace

Schema petsc_schema() {
  return {
      ParamSpec::string("ksp_type", "gmres",
                        fmt::format("PETSc's Krylov method (KSPType); this PETSc's headers name: {}",
                                    header_ksp_types)),
      ParamSpec::string("pc_type", "ilu",
                        fmt::format("PETSc's preconditioner (PCType); this PETSc's headers name: "
                                    "{} (external packages: hypre, mumps through lu/cholesky)",
                                    header_pc_types)),
      ParamSpec::real("tolerance", 1e-8,
                      "relative tolerance (KSP rtol, measured in the norm the KSP monitors)")
          .above(0.0),
      ParamSpec::real("atol", 1e-50, "absolute tolerance (KSP atol)").at_least(0.0),
      ParamSpec::integer("max_iterations", 1000, "iterations before giving up (KSP max_it)")
          .at_least(1),
      ParamSpec::integer("restart", 30, "restart length of gmres, fgmres and lgmres").at_least(1),
      ParamSpec::string("factor_solver_type", "",
                        "the factorisation package of lu, cholesky and ilu (MatSolverType: "
                        "petsc, mumps, superlu, umfpack, ...); empty for PETSc's default"),
      ParamSpec::choice("initial_guess", "zero", {"zero", "given"},
                        "zero, or given: start from the x passed to solve()"),
      ParamSpec::string("options", "",
                        "more PETSc options, as on PETSc's command line (\"-pc_hypre_type "
                        "boomeramg -ksp_gmres_modifiedgramschmidt\"), given to this solver only; "
                        "an option PETSc does not use is warned about"),
  };
}

PetscSolver::PetscSolver(const PluginContext& ctx)
    : log_(ctx.log),
      ksp_type_(ctx.params.string("ksp_type")),
      pc_type_(ctx.params.string("pc_type")),
      factor_solver_type_(ctx.params.string("factor_solver_type")),
      options_(ctx.params.string("options")),
      rtol_(ctx.params.real("tolerance")),
      atol_(ctx.params.real("atol")),
      max_iterations_(ctx.params.integer("max_iterations")),
      restart_(ctx.params.integer("restart")),
      initial_guess_given_(ctx.params.string("initial_guess") == "given") {
  start_petsc();
  check_type("ksp_type", ksp_type_, KSPList, "KSP");
  check_type("pc_type", pc_type_, PCList, "PC");
  prefix_ = fmt::format("solvent_{}_", ++solver_count);

  // `options` goes into the global options database under this solver's prefix: every
  // option name "-x" becomes "-solvent_N_x", which KSP, PC and the packages under them read.
  std::istringstream in(options_);
  std::string word, rewritten;
  while (in >> word) {
    if (word.size() > 1 && word[0] == '-' && std::isalpha(static_cast<unsigned char>(word[1]))) {
      option_names_.push_back("-" + prefix_ + word.substr(1));
      word = option_names_.back();
    }
    rewritten += word + " ";
  }
  if (!options_.empty() && option_names_.empty())
    throw ConfigError({fmt::format("[linear_solver] (linear solver '{}'): options '{}' names no "
                                   "option (PETSc's options begin with '-')",
                                   plugin_name(), options_)});
  check(PetscOptionsInsertString(nullptr, rewritten.c_str()), "PetscOptionsInsertString");

  make_ksp(PETSC_COMM_SELF);
}

// The KSP on `comm` with every setting of the keys and `options`: made in the constructor on
// this process alone, and again on MPI_COMM_WORLD the first time a stencil distributed over
// the ranks is set up.
void PetscSolver::make_ksp(MPI_Comm comm) {
  if (ksp_) KSPDestroy(&ksp_);
  check(KSPCreate(comm, &ksp_), "KSPCreate");
  check(KSPSetOptionsPrefix(ksp_, prefix_.c_str()), "KSPSetOptionsPrefix");
  check(KSPSetType(ksp_, ksp_type_.c_str()), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(ksp_, &pc), "KSPGetPC");
  check(PCSetType(pc, pc_type_.c_str()), "PCSetType");
  if (!factor_solver_type_.empty())
    check(PCFactorSetMatSolverType(pc, factor_solver_type_.c_str()), "PCFactorSetMatSolverType");
  check(KSPSetTolerances(ksp_, rtol_, atol_, PETSC_DEFAULT, static_cast<PetscInt>(max_iterations_)),
        "KSPSetTolerances");
  check(KSPGMRESSetRestart(ksp_, static_cast<PetscInt>(restart_)), "KSPGMRESSetRestart");
  check(KSPSetInitialGuessNonzero(ksp_, initial_guess_given_ ? PETSC_TRUE : PETSC_FALSE),
        "KSPSetInitialGuessNonzero");
  // The residual history through a monitor, by iteration number: KSPSetResidualHistory's
  // array gets an extra entry at every gmres restart (the new cycle logs its starting norm
  // again), a monitor is called with the iteration number, so a restart overwrites its entry.
  check(KSPMonitorSet(ksp_, &PetscSolver::record_norm, this, nullptr), "KSPMonitorSet");
  check(KSPSetFromOptions(ksp_), "KSPSetFromOptions");
  ksp_comm_ = comm;
}

PetscSolver::~PetscSolver() {
  release_matrix();
  if (ksp_) KSPDestroy(&ksp_);
  for (const auto& name : option_names_) PetscOptionsClearValue(nullptr, name.c_str());
}

void PetscSolver::release_matrix() {
  if (mat_) MatDestroy(&mat_);
  if (vb_) VecDestroy(&vb_);
  if (vx_) VecDestroy(&vx_);
}

std::vector<OperatorForm> PetscSolver::forms() const {
  return {{OperatorKind::Csr, scalar_kind}, {OperatorKind::Stencil7, scalar_kind}};
}

void PetscSolver::build_matrix(const CsrMatrix<Scalar>& a) {
  const auto n = static_cast<PetscInt>(a.rows);
  std::vector<PetscInt> ia(a.row_ptr.begin(), a.row_ptr.end());
  std::vector<PetscInt> ja(a.col_idx.begin(), a.col_idx.end());
  release_matrix();
  check(MatCreate(PETSC_COMM_SELF, &mat_), "MatCreate");
  check(MatSetSizes(mat_, n, n, n, n), "MatSetSizes");
  check(MatSetType(mat_, MATSEQAIJ), "MatSetType");
  // Copies the three arrays and assembles: the matrix owns its storage.
  check(MatSeqAIJSetPreallocationCSR(mat_, ia.data(), ja.data(), a.values.data()),
        "MatSeqAIJSetPreallocationCSR");
  check(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, nullptr, &vb_), "VecCreateSeqWithArray");
  check(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, nullptr, &vx_), "VecCreateSeqWithArray");
  ++builds_;
}

// A seven-point operator, whole or this rank's block of one distributed over the ranks: each
// rank inserts its own rows of an AIJ matrix (MPIAIJ over several ranks) with global column
// indices, the ranks numbered one after another (rank r's nodes from the sum of the blocks
// before it, in the block's own order, so a rank's part of a PETSc vector is its block as
// Solvent holds it); a coupling across a block face goes to the neighbour's node there. No
// rank gathers anything. The rows are those of the core's conversion to CSR: an inactive
// node (c0 = 0) is the row u = 0.
void PetscSolver::build_matrix(const Stencil7<Scalar>& a) {
  MPI_Comm comm = PETSC_COMM_SELF;
  int rank = 0;
  std::vector<PetscInt> start(1, 0);
  GridBlocks::Index3 e{int(a.n1), int(a.n2), int(a.n3)};
  std::array<int, 6> nb{-1, -1, -1, -1, -1, -1};
  std::vector<GridBlocks::Index3> extents(1, e);
  if (a.distributed()) {
    const auto& blocks = a.block->blocks;
    int world_size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (world_size != blocks.ranks())
      throw SolverError(fmt::format("{}: the stencil is split over {} ranks, MPI_COMM_WORLD has {}",
                                    plugin_name(), blocks.ranks(), world_size));
    comm = MPI_COMM_WORLD;
    rank = a.block->rank;
    nb = blocks.neighbours(rank);
    extents.clear();
    for (int r = 0; r < blocks.ranks(); ++r) {
      const auto x = blocks.extent(r);
      extents.push_back(x);
      start.push_back(start.back() + PetscInt(x[0]) * x[1] * x[2]);
    }
  }
  if (ksp_comm_ != comm) make_ksp(comm);
  const auto n = static_cast<PetscInt>(a.size());
  release_matrix();
  check(MatCreateAIJ(comm, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 7, nullptr, 6, nullptr, &mat_),
        "MatCreateAIJ");
  const PetscInt first = start[std::size_t(rank)];
  auto global = [&](int r, int i, int j, int k) {
    const auto& x = extents[std::size_t(r)];
    return start[std::size_t(r)] + i + PetscInt(x[0]) * (j + PetscInt(x[1]) * k);
  };
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i) {
        const std::size_t m = a.index(std::size_t(i), std::size_t(j), std::size_t(k));
        const PetscInt row = first + PetscInt(m);
        PetscInt cols[7];
        Scalar vals[7];
        int count = 0;
        auto add = [&](PetscInt col, Scalar v) {
          cols[count] = col;
          vals[count++] = v;
        };
        if (a.c[0][m] == Scalar{}) {
          add(row, Scalar(1));
        } else {
          add(row, a.c[0][m]);
          const int p[3] = {i, j, k};
          for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
              const int face = 2 * axis + side;
              const Scalar c = a.c[std::size_t(face + 1)][m];
              int q[3] = {p[0], p[1], p[2]};
              q[axis] += side ? 1 : -1;
              if (q[axis] >= 0 && q[axis] < e[std::size_t(axis)]) {
                add(global(rank, q[0], q[1], q[2]), -c);
              } else if (nb[std::size_t(face)] >= 0) {
                const int other = nb[std::size_t(face)];
                q[axis] = side ? 0 : extents[std::size_t(other)][std::size_t(axis)] - 1;
                add(global(other, q[0], q[1], q[2]), -c);
              }
            }
        }
        check(MatSetValues(mat_, 1, &row, count, cols, vals, INSERT_VALUES), "MatSetValues");
      }
  check(MatAssemblyBegin(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(VecCreateMPIWithArray(comm, 1, n, PETSC_DECIDE, nullptr, &vb_), "VecCreateMPIWithArray");
  check(VecCreateMPIWithArray(comm, 1, n, PETSC_DECIDE, nullptr, &vx_), "VecCreateMPIWithArray");
  ++builds_;
}

// Setting up again (an IMEX integrator hands a new operator when dt changes):
// - the same operator object: nothing to do (an operator never changes while in use);
// - a CSR matrix of the same size and nonzero pattern: the values are copied into the
//   existing PETSc matrix and KSPSetOperators tells the PC, which refactors numerically
//   and keeps its symbolic analysis (ilu, lu, mumps);
// - anything else: a new matrix, with the same KSP and PC objects.
void PetscSolver::setup_impl(std::shared_ptr<const Operator> op) {
  if (op_ && op.get() == op_.get()) {
    ++unchanged_setups_;
    return;
  }
  // A matrix of another size: the KSP forgets its work vectors and the PC its setup
  // (KSPReset keeps the types, tolerances and options).
  if (mat_ && op_ && rows_of(*op_) != rows_of(*op)) check(KSPReset(ksp_), "KSPReset");
  if (const auto* st = std::get_if<Stencil7<Scalar>>(&*op)) {
    // A new stencil is always a new matrix (its active nodes, and so its pattern, may differ).
    build_matrix(*st);
  } else {
    take_csr(std::get<CsrMatrix<Scalar>>(*op));
  }
  op_ = std::move(op);
  check(KSPSetOperators(ksp_, mat_, mat_), "KSPSetOperators");
  check(KSPSetUp(ksp_), "KSPSetUp (the preconditioner's setup)");
  check_options_used();
}

void PetscSolver::take_csr(const CsrMatrix<Scalar>& a) {
  // A matrix the process holds whole is on this process's KSP alone.
  if (ksp_comm_ != PETSC_COMM_SELF) {
    make_ksp(PETSC_COMM_SELF);
    op_.reset();
  }
  if (a.rows != a.cols)
    throw SolverError(fmt::format("{}: matrix is {} x {}, not square", plugin_name(), a.rows, a.cols));
  bool same_pattern = false;
  if (mat_ && op_ && std::holds_alternative<CsrMatrix<Scalar>>(*op_)) {
    const auto& old = std::get<CsrMatrix<Scalar>>(*op_);
    same_pattern = old.rows == a.rows && old.row_ptr == a.row_ptr && old.col_idx == a.col_idx;
  }
  if (same_pattern) {
    Scalar* values = nullptr;
    check(MatSeqAIJGetArray(mat_, &values), "MatSeqAIJGetArray");
    std::copy(a.values.begin(), a.values.end(), values);
    check(MatSeqAIJRestoreArray(mat_, &values), "MatSeqAIJRestoreArray");
    ++value_updates_;
  } else {
    build_matrix(a);
  }
}

// After the first setup every option of `options` has been read by whatever reads it (KSP
// and PC at KSPSetFromOptions, the factorisation packages at KSPSetUp); one never read is
// a misspelling or an option of another method, and is said once, naming the key.
void PetscSolver::check_options_used() {
  if (options_checked_) return;
  options_checked_ = true;
  for (const auto& name : option_names_) {
    PetscBool used = PETSC_FALSE;
    // The database keeps names without their leading '-'.
    check(PetscOptionsUsed(nullptr, name.c_str() + 1, &used), "PetscOptionsUsed");
    if (used) continue;
    const std::string given = "-" + name.substr(1 + prefix_.size());
    unused_options_.push_back(given);
    if (log_)
      log_->warn("[linear_solver] options: PETSc did not use '{}' (with ksp_type '{}', pc_type "
                 "'{}'); check its spelling and that it belongs to these methods",
                 given, ksp_type_, pc_type_);
  }
}

PetscErrorCode PetscSolver::record_norm(KSP, PetscInt it, PetscReal norm, void* self) {
  auto& h = static_cast<PetscSolver*>(self)->history_;
  const auto k = static_cast<std::size_t>(it);
  if (h.size() <= k) h.resize(k + 1, norm);
  h[k] = norm;
  return 0;
}

SolveStats PetscSolver::solve_scalar(std::span<const Scalar> b, std::span<Scalar> x) {
  history_.clear();
  check(VecPlaceArray(vb_, b.data()), "VecPlaceArray");
  check(VecPlaceArray(vx_, x.data()), "VecPlaceArray");
  const PetscErrorCode code = KSPSolve(ksp_, vb_, vx_);
  VecResetArray(vb_);
  VecResetArray(vx_);
  check(code, "KSPSolve");
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
  st.residual = relative_residual(*op_, b, std::span<const Scalar>(x.data(), x.size()));

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
  Facts f = {{"petsc_version", fmt::format("{}.{}.{}", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR,
                                           PETSC_VERSION_SUBMINOR)},
             {"ksp_type", ksp_type_},
             {"pc_type", pc_type_},
             {"matrix_builds", std::to_string(builds_)},
             {"value_updates", std::to_string(value_updates_)},
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
  if (!unused_options_.empty())
    f.emplace_back("unused_options", fmt::format("{}", fmt::join(unused_options_, " ")));
  return f;
}

}  // namespace solvent::petsc
