#include "src/petsc_runtime.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <mutex>
#include <sstream>

namespace solvent::petsc {

namespace {

// The first message of a failing call (PETSc's own words, which name the type or option at
// fault), kept by the handler and taken by check().
thread_local std::string last_error;

PetscErrorCode keep_message(MPI_Comm, int, const char* fun, const char*, PetscErrorCode n,
                            PetscErrorType p, const char* mess, void*) {
  if (p == PETSC_ERROR_INITIAL)
    last_error = fmt::format("{} (in {})", mess && *mess ? mess : "error", fun ? fun : "?");
  return n;
}

std::atomic<int> object_count{0};

// "file.toml:7:11: " (or "--set: "), where the user gave the value; empty for a default.
std::string located(const Parameters& params, const std::string& key) {
  const std::string& where = params.entries().at(key).where;
  return where.empty() ? "" : where + ": ";
}

}  // namespace

std::string petsc_version() {
  return fmt::format("{}.{}.{}", PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR);
}

ErrorScope::ErrorScope() {
  last_error.clear();
  PetscPushErrorHandler(keep_message, nullptr);
}

ErrorScope::~ErrorScope() { PetscPopErrorHandler(); }

namespace {
// What PETSc said of its last error: the handler's text where it caught one, else the code's.
std::string error_text(PetscErrorCode code) {
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  std::string detail = last_error.empty() ? (text ? text : "") : last_error;
  last_error.clear();
  return detail;
}
}  // namespace

void check(PetscErrorCode code, const char* what) {
  if (code == 0) return;
  throw SolverError(fmt::format("{}: {} failed: {}", plugin_name(), what, error_text(code)));
}

// PETSc starts once per process and PETSc build, the first time a plugin object is made —
// never to describe or list the plugin, which must not start MPI. The `petsc` and `petsc-pc`
// libraries share one libpetsc_real (the loader maps a library once), so the second finds
// it started.
//
// Under mpirun the core has started MPI before any plugin object is made, and PETSc uses
// it as it is. Without mpirun MPI is not started by the core, so PetscInitialize starts it
// (a singleton MPI_Init) — once: the other PETSc build of the process (real beside complex)
// finds MPI started and leaves it alone.
//
// PetscFinalize is never called, on purpose. It would free what plugin objects still hold
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
    ErrorScope scope;
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

void check_type(const Parameters& params, const std::string& where, const std::string& key,
                PetscFunctionList list, const char* what) {
  const std::string& value = params.string(key);
  const auto names = names_of(list);
  if (std::find(names.begin(), names.end(), value) != names.end()) return;
  std::string reason = fmt::format("is not a {} type of this PETSc ({})", what, petsc_version());
#if !defined(PETSC_HAVE_HYPRE)
  // The one external package a user of the real build reaches for and Debian's complex build
  // lacks: said as such, not as if the name were misspelt.
  if (value == "hypre")
    reason = fmt::format(
        "is not available: this PETSc ({}, {} scalars) is built without hypre "
        "(BoomerAMG is in the real plugins, petsc and petsc-pc)",
        petsc_version(), to_string(scalar_kind));
#endif
  throw ConfigError({fmt::format("{}{}: {} '{}' {}; it offers: {}", located(params, key), where,
                                 key, value, reason, fmt::join(names, ", "))});
}

void set_pc_type(PC pc, const std::string& type, const std::string& factor_solver_type) {
  check(PCSetType(pc, type.c_str()), "PCSetType");
  if (!factor_solver_type.empty())
    check(PCFactorSetMatSolverType(pc, factor_solver_type.c_str()), "PCFactorSetMatSolverType");
}

PrefixedOptions::PrefixedOptions(const char* stem, const Parameters& params,
                                 const std::string& where)
    : prefix_(fmt::format("{}{}_", stem, ++object_count)),
      source_(fmt::format("{}{}: options '{}'", located(params, "options"), where,
                          params.string("options"))) {
  start_petsc();  // the options database is PETSc's
  const std::string& options = params.string("options");
  std::istringstream in(options);
  std::string word, rewritten;
  while (in >> word) {
    if (word.size() > 1 && word[0] == '-' && std::isalpha(static_cast<unsigned char>(word[1]))) {
      names_.push_back("-" + prefix_ + word.substr(1));
      word = names_.back();
    }
    rewritten += word + " ";
  }
  if (!options.empty() && names_.empty())
    throw ConfigError(
        {fmt::format("{}{}: options '{}' names no option (PETSc's options begin "
                     "with '-')",
                     located(params, "options"), where, options)});
  ErrorScope scope;
  check(PetscOptionsInsertString(nullptr, rewritten.c_str()), "PetscOptionsInsertString");
}

void PrefixedOptions::check_read(PetscErrorCode code, const char* what) const {
  if (code == 0) return;
  throw ConfigError(
      {fmt::format("{}: PETSc refused them ({}): {}", source_, what, error_text(code))});
}

PrefixedOptions::~PrefixedOptions() {
  for (const auto& name : names_) PetscOptionsClearValue(nullptr, name.c_str());
}

void PrefixedOptions::check_used(const std::shared_ptr<spdlog::logger>& log, const char* section,
                                 const std::string& methods) {
  if (unused_) return;
  unused_.emplace();
  for (const auto& name : names_) {
    PetscBool used = PETSC_FALSE;
    // The database keeps names without their leading '-'.
    check(PetscOptionsUsed(nullptr, name.c_str() + 1, &used), "PetscOptionsUsed");
    if (used) continue;
    unused_->push_back(std::string(name).erase(1, prefix_.size()));  // "-x" as written
    if (log)
      log->warn(
          "{} options: PETSc did not use '{}' (with {}); check its spelling and that it "
          "belongs to these methods",
          section, unused_->back(), methods);
  }
}

void PrefixedOptions::add_facts(Facts& facts) const {
  if (unused_ && !unused_->empty())
    facts.emplace_back("unused_options", fmt::format("{}", fmt::join(*unused_, " ")));
}

PlacedArray::PlacedArray(Vec v, const Scalar* data) : v_(v) {
  check(VecPlaceArray(v_, data), "VecPlaceArray");
}

PlacedArray::~PlacedArray() { VecResetArray(v_); }

}  // namespace solvent::petsc
