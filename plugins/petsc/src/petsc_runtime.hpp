#pragma once
// What every plugin of the package does with PETSc, whichever object it makes: start it,
// turn its errors into SolverError with PETSc's own message, check a type name against the
// live registry, keep an object's `options` under a prefix of its own, and lend Solvent's
// vectors to PETSc. Compiled into each plugin against that plugin's PETSc build (PetscScalar
// is double or std::complex<double>).
#include <solvent/solvent.hpp>

#include <petscksp.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace solvent::petsc {

using Scalar = PetscScalar;
#if defined(PETSC_USE_COMPLEX)
inline constexpr ScalarKind scalar_kind = ScalarKind::Complex;
#else
inline constexpr ScalarKind scalar_kind = ScalarKind::Real;
#endif

// The plugin's name ("petsc", "petsc-pc-complex", ...), defined by its descriptor's file.
const char* plugin_name();

// "3.18.5".
std::string petsc_version();

// Starts this PETSc once per process (never to list or describe a plugin, which must not
// start MPI); see petsc_runtime.cpp for MPI and finalisation.
void start_petsc();

// Every call into PETSc runs inside one: it installs the error handler that keeps PETSc's
// message for check() and prints nothing, and removes it at the end. Scoped, not installed
// once, because `petsc` and `petsc-pc` share one libpetsc (one handler stack) while each
// plugin library keeps its own message.
class ErrorScope {
 public:
  ErrorScope();
  ~ErrorScope();
  ErrorScope(const ErrorScope&) = delete;
  ErrorScope& operator=(const ErrorScope&) = delete;
};

// A PETSc object a plugin makes and owns (its KSP, its PC), destroyed with the plugin, and
// also when the plugin's constructor throws after making it (a type or an option PETSc
// refuses): a handle destroyed only in the plugin's destructor was left behind then, since a
// constructor that throws runs no destructor of its own, only its members'.
template <class Handle, PetscErrorCode (*destroy)(Handle*)>
class Owned {
 public:
  Owned() = default;
  ~Owned() {
    if (handle_) {
      ErrorScope scope;
      destroy(&handle_);
    }
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  operator Handle() const { return handle_; }
  // For XCreate(comm, owned.fresh()): the object held so far is destroyed first (inside the
  // caller's ErrorScope).
  Handle* fresh() {
    if (handle_) destroy(&handle_);
    return &handle_;
  }

 private:
  Handle handle_ = nullptr;
};

// Throws SolverError "<plugin>: <what> failed: <PETSc's message>" for a non-zero code.
void check(PetscErrorCode code, const char* what);

// The names a PETSc function list holds (KSPList, PCList), sorted.
std::vector<std::string> names_of(PetscFunctionList list);

// Refuses params' `key` unless `list` holds it: a ConfigError located at the value
// ("file.toml:7:11: "), then `where` ("[preconditioner] (preconditioner 'petsc-pc')"),
// naming every type this PETSc offers; a package it was built without (hypre in the complex
// build) is named as such.
void check_type(const Parameters& params, const std::string& where, const std::string& key,
                PetscFunctionList list, const char* what);

// Sets a PC's type and, where not empty, the factorisation package of lu, cholesky or ilu.
void set_pc_type(PC pc, const std::string& type, const std::string& factor_solver_type);

// An object's `options` (params' key) in PETSc's global options database, under a prefix of
// its own ("-x" becomes "-<stem>N_x"), so that two objects of a process never read each
// other's; removed again with the object. A string that names no option is a ConfigError,
// located as check_type's.
class PrefixedOptions {
 public:
  // stem: "solvent_" (solvers) or "solvent_pc_" (preconditioners), distinct because the
  // `petsc` and `petsc-pc` libraries count their objects apart but share one database.
  PrefixedOptions(const char* stem, const Parameters& params, const std::string& where);
  ~PrefixedOptions();
  PrefixedOptions(const PrefixedOptions&) = delete;
  PrefixedOptions& operator=(const PrefixedOptions&) = delete;

  const std::string& prefix() const { return prefix_; }
  // The code of a *SetFromOptions call, which is where PETSc reads the values: an error
  // there (a value it cannot parse, "-ksp_rtol banana") is a ConfigError located at
  // `options`, found by `solvent validate`, which makes the object.
  void check_read(PetscErrorCode code, const char* what) const;
  // Called after each setup; after the first, every option has been read by whatever reads it
  // (KSP and PC when set from the options, hypre and the factorisation packages at their
  // setup): one never read is a misspelling or an option of other methods, warned about once
  // on `log` ("<section> options: PETSc did not use '-x' (with <methods>) ...").
  void check_used(const std::shared_ptr<spdlog::logger>& log, const char* section,
                  const std::string& methods);
  // The fact `unused_options` ("-pc_hypre_type -x"), where there were some.
  void add_facts(Facts& facts) const;

 private:
  std::string prefix_;
  std::string source_;              // "<file:line>: <where>: options '<as written>'"
  std::vector<std::string> names_;  // the names of `options`, prefixed
  // As written in `options`, those PETSc did not read at the first setup (none before it).
  std::optional<std::vector<std::string>> unused_;
};

// Lends a Solvent vector to a PETSc Vec made without storage for the time of one call
// (VecPlaceArray: no copy).
class PlacedArray {
 public:
  PlacedArray(Vec v, const Scalar* data);
  ~PlacedArray();
  PlacedArray(const PlacedArray&) = delete;
  PlacedArray& operator=(const PlacedArray&) = delete;

 private:
  Vec v_;
};

}  // namespace solvent::petsc
