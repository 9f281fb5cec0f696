#pragma once
// Preconditioner: the fourth plugin kind. z = M^{-1} r for an M built from the operator.
// A Krylov solver does not choose or own it: the core creates it from [preconditioner],
// gives it to the solver (LinearSolver::set_preconditioner) and sets it up in
// LinearSolver::setup, converted to a storage it declares, before the solver's own setup.
// When a later setup brings an operator with the same storage, size and pattern (new values
// only, as when an implicit step's matrix changes with dt), refresh() is called instead.
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>

#include <memory>
#include <span>
#include <vector>

namespace solvent {

class Preconditioner : public PluginObject {
 public:
  // The storages it builds M from, most preferred first.
  virtual std::vector<OperatorForm> forms() const = 0;
  // Builds M from A. A stays alive and unchanged while the preconditioner uses it. Throws
  // SolverError when M cannot be built (a zero pivot), naming the row.
  virtual void setup(std::shared_ptr<const Operator> a) = 0;
  // A's values changed, its pattern did not: recompute what depends on values only.
  virtual void refresh(std::shared_ptr<const Operator> a) { setup(std::move(a)); }
  // z = M^{-1} r on vectors in the memory of the preconditioner's device (host memory for a
  // "cpu" plugin, device memory for a "cuda" one); r and z may be the same vector.
  virtual void apply(std::span<const double> r, std::span<double> z) const;
  virtual void apply(std::span<const complex> r, std::span<complex> z) const;
};

}  // namespace solvent
