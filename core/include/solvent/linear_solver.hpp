#pragma once
// LinearSolver: setup() takes an operator once (factor or analyse; a solver may keep it
// resident on a device), solve() is called many times with new right-hand sides.
//
// The public setup() and solve() are the core's and not virtual (Ginkgo's validate-then-
// apply_impl): they check setup-before-solve, sizes and scalar types, convert the operator
// to the first storage in forms() that the core can produce (solvent/conversion.hpp; the
// conversion is logged and recorded), set up the preconditioner, permute for a band
// ordering, and verify the result; a plugin implements only setup_impl and solve_impl and
// is never handed anything it did not declare.
#include <solvent/conversion.hpp>
#include <solvent/grid/exchange_cost.hpp>
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/operator.hpp>
#include <solvent/plugin_object.hpp>
#include <solvent/preconditioner.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent {

struct SolveStats {
  std::int64_t iterations = 0;  // 1 for a direct solve
  // ||b - A x|| / ||b|| of the returned x. Iterative solvers report the residual of their
  // stopping rule; for a solver that leaves it NaN the core computes the true one after the
  // solve (SolverPolicy::verify_residual), so every recorded residual was computed.
  double residual = std::numeric_limits<double>::quiet_NaN();
  bool converged = false;
  std::string status;  // "converged", "max_iterations", "breakdown: rho = 0", ...
  // Iterative solvers: entry k is the relative residual after k iterations, entry 0 that of
  // the initial guess (so iterations + 1 entries); direct solvers leave it empty.
  std::vector<double> residual_history;
};

// What the core decides for every solver of a run ([linear_solver] keys of the core).
struct SolverPolicy {
  ConversionOptions conversion;
  // Compute ||b - A x|| / ||b|| after every solve whose solver did not report one (the
  // direct solvers): one matrix-vector product per solve. A non-finite result marks the
  // solve as failed.
  bool verify_residual = true;
  // Called with a sentence when setup converted the operator (the run driver logs it and
  // writes it into the record).
  std::function<void(const std::string&)> on_conversion;
  // Called by an iterative solver while it runs, after iteration k with the relative
  // residual of its stopping rule (SolveStats::residual_history's entry k): [linear_solver]
  // monitor = N logs every Nth, as a long solve goes on.
  std::function<void(std::int64_t iteration, double residual)> on_iteration;
};

// Hints an integrator gives with the operator.
struct OperatorHints {
  // A permutation p (new index -> old index) under which the operator is banded; used only
  // if the operator is converted to banded storage.
  std::vector<std::int32_t> band_ordering;
};

class LinearSolver : public PluginObject {
 public:
  LinearSolver();
  ~LinearSolver() override;
  LinearSolver(const LinearSolver&) = delete;
  LinearSolver& operator=(const LinearSolver&) = delete;

  // The storages and scalars this solver works on, most preferred first.
  virtual std::vector<OperatorForm> forms() const = 0;
  // Whether the method applies a preconditioner (Krylov methods); direct solvers do not.
  virtual bool uses_preconditioner() const { return false; }
  // This rank's speed at the solver's work on its device (nodes a second, or any unit that
  // compares ranks), from a short calibration, before any setup; 0 where the solver has
  // none. The core asks for it when the run balances its blocks by measured speed ([run]
  // balance = "measured") and hands every rank's to the model (PluginContext::rank_speeds).
  virtual double measured_speed() { return 0.0; }
  // The halo exchanges and reductions of one iteration over the blocks of a grid, by which
  // a run balanced by measured speed judges whether a slow rank's share is worth its
  // exchanges (weigh_by_speed): as the solver states it (state_exchanges), else one of each,
  // the least any iterative method over ranks makes (a product and a convergence test).
  IterationExchanges exchanges_per_iteration() const;

  // Whether `form` is in forms().
  bool accepts(OperatorForm form) const;
  // Why this solver cannot solve a system split over ranks in `blocks` (a split its method
  // cannot follow), empty when it can: the core asks before anything is assembled, so that
  // `solvent validate` refuses what setup would.
  std::string blocks_problem(const GridBlocks& blocks) const;

  // The operator stays alive, unchanged, for as long as the solver uses it. Throws
  // UnsupportedOperator when no storage in forms() can be produced from it, naming both.
  void setup(std::shared_ptr<const Operator> op, const OperatorHints& hints = {});

  // x carries the initial guess in (where the solver uses one) and the solution out. A
  // direct solver throws SolverError on a singular or non-finite pivot; an iterative one
  // returns converged = false with its best iterate in x.
  SolveStats solve(std::span<const double> b, std::span<double> x);
  SolveStats solve(std::span<const complex> b, std::span<complex> x);

  // Set by the core before setup().
  void set_policy(SolverPolicy policy);
  void set_preconditioner(std::shared_ptr<Preconditioner> pc);

  // What the last setup converted ("" when the operator was used as given), and the form of
  // the operator the solver works on since (none before setup).
  const std::string& conversion() const;
  std::optional<OperatorForm> working_form() const;
  // What the last solve returned (after the core's residual check), and how many solves
  // there were: for the run's closing summary.
  const std::optional<SolveStats>& last_solve() const;
  std::int64_t solves() const;

 protected:
  // Called with an operator whose form is in forms(), after the preconditioner's setup.
  virtual void setup_impl(std::shared_ptr<const Operator> op) = 0;
  // Called with b and x of the operator's size and scalar type, after setup_impl.
  virtual SolveStats solve_impl(std::span<const double> b, std::span<double> x);
  virtual SolveStats solve_impl(std::span<const complex> b, std::span<complex> x);
  // The preconditioner set up for the current operator, or nullptr.
  const Preconditioner* preconditioner() const;
  // For blocks_problem: the solver's rule for the blocks of a split grid (from its
  // constructor; without one, every split is taken).
  void refuse_blocks(std::function<std::string(const GridBlocks&)> why);
  // For exchanges_per_iteration (from the solver's constructor).
  void state_exchanges(IterationExchanges exchanges);
  // An iterative solver reports each iteration's relative residual (SolverPolicy::on_iteration).
  void report_iteration(std::int64_t iteration, double residual) const;

 private:
  template <class T>
  SolveStats checked_solve(std::span<const T> b, std::span<T> x);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent
