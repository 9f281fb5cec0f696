#pragma once
// Preconditioner: the fourth plugin kind. z = M^{-1} r for an M built from the operator.
// A Krylov solver does not choose or own it: the core creates it from [preconditioner],
// gives it to the solver (LinearSolver::set_preconditioner) and sets it up in
// LinearSolver::setup, converted to a storage it declares, before the solver's own setup.
// When a later setup brings an operator with the same storage, size and pattern (new values
// only, as when an implicit step's matrix changes with dt), refresh() is called instead.
//
// As for LinearSolver, the public setup(), refresh() and apply() are the core's and not
// virtual: they check that the operator's form is one forms() declares, that apply() comes
// after a setup that succeeded, and that its vectors have the scalar type and length of that
// operator, so a plugin implements only setup_impl, refresh_impl and apply_impl and is never
// handed anything it did not declare.
//
// Memory: apply() works on vectors in the memory of the preconditioner's device — host
// memory for a "cpu" plugin, the current CUDA device's global memory for a "cuda" one (the
// Krylov solvers' device vectors). A CUDA apply runs on the default (legacy) stream, as the
// Krylov kernels do, so it is ordered after the kernels that produced r and before those
// that read z without any synchronisation, and it may return before z is written.
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>

#include <memory>
#include <span>
#include <vector>

namespace solvent {

class Preconditioner : public PluginObject {
 public:
  Preconditioner();
  ~Preconditioner() override;
  Preconditioner(const Preconditioner&) = delete;
  Preconditioner& operator=(const Preconditioner&) = delete;

  // The storages it builds M from, most preferred first.
  virtual std::vector<OperatorForm> forms() const = 0;

  // Builds M from A. A stays alive and unchanged while the preconditioner uses it. Throws
  // UnsupportedOperator when A's form is not in forms() (naming both), and SolverError when
  // M cannot be built (the plugin names the row of a zero pivot). After a failure there is
  // nothing to apply until the next setup succeeds.
  void setup(std::shared_ptr<const Operator> a);
  // A's values changed, its pattern did not: recompute what depends on values only. Before a
  // successful setup, or with an operator of another form or size than the last setup's, it
  // is a setup.
  void refresh(std::shared_ptr<const Operator> a);
  // z = M^{-1} r on vectors in the device memory described above, of the scalar type and
  // length of the operator set up; r and z may be the same vector. Throws SolverError before
  // a successful setup or for other lengths, UnsupportedOperator for the other scalar type.
  void apply(std::span<const double> r, std::span<double> z) const;
  void apply(std::span<const complex> r, std::span<complex> z) const;

 protected:
  // Called with an operator whose form is in forms().
  virtual void setup_impl(std::shared_ptr<const Operator> a) = 0;
  // Called after a successful setup with an operator of the same form and size; the default
  // builds M anew.
  virtual void refresh_impl(std::shared_ptr<const Operator> a);
  // Called after a successful setup with r and z of the operator's scalar type and length.
  virtual void apply_impl(std::span<const double> r, std::span<double> z) const;
  virtual void apply_impl(std::span<const complex> r, std::span<complex> z) const;

 private:
  template <class T>
  void checked_apply(std::span<const T> r, std::span<T> z) const;

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent
