#pragma once
// LinearSolver: setup() takes an operator once (factor or analyse; a solver may keep it
// resident on a device), solve() is called many times with new right-hand sides.
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent {

struct SolveStats {
  std::int64_t iterations = 0;  // 1 for a direct solve
  double residual = 0.0;        // relative residual ||b - Ax|| / ||b|| where known
  bool converged = false;
  std::string status;                    // "converged", "max_iterations", "breakdown: rho = 0", ...
  std::vector<double> residual_history;  // iterative solvers: one entry per iteration
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
