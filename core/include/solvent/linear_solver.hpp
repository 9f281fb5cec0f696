#pragma once
// LinearSolver: setup() takes an operator once (factor or analyse; a solver may keep it
// resident on a device), solve() is called many times with new right-hand sides.
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent {

struct SolveStats {
  std::int64_t iterations = 0;  // 1 for a direct solve
  // ||b - A x|| / ||b|| of the returned x as the solver computed it (an iteration's stopping
  // rule; solvent::relative_residual computes it for any storage). NaN: not computed — the
  // direct solvers leave it so rather than spend a matrix-vector product on every solve
  // (+50 % on the banded 1D step); the record then says "not computed", never a made-up 0.
  double residual = std::numeric_limits<double>::quiet_NaN();
  bool converged = false;
  std::string status;                    // "converged", "max_iterations", "breakdown: rho = 0", ...
  // Iterative solvers: entry k is the relative residual after k iterations, entry 0 that of
  // the initial guess (so iterations + 1 entries); direct solvers leave it empty.
  std::vector<double> residual_history;
};

class LinearSolver : public PluginObject {
 public:
  virtual bool accepts(OperatorKind kind, ScalarKind scalar) const = 0;

  // The operator stays alive, unchanged, for as long as the solver uses it.
  virtual void setup(std::shared_ptr<const Operator> op) = 0;

  // x carries the initial guess in (where the solver uses one) and the solution out.
  // A direct solver throws SolverError on a singular or non-finite pivot; an iterative
  // one returns converged = false with its best iterate in x.
  virtual SolveStats solve(std::span<const double> b, std::span<double> x);
  virtual SolveStats solve(std::span<const complex> b, std::span<complex> x);
};

}  // namespace solvent
