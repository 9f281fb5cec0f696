#pragma once
// The MATM iteration of Sukhinov et al. eq. (5), written once over the vector work it needs;
// the CPU solver and the CUDA solver each provide that work (MatmBackend) and share
// everything else: the parameter choice, the stopping rule, the history, the status.
#include <solvent/linear_solver.hpp>
#include <solvent/parameters.hpp>
#include <solvent_matm/iteration_parameters.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace solvent::matm {

class MatmBackend {
 public:
  virtual ~MatmBackend() = default;
  virtual bool self_adjoint() const = 0;
  virtual double rhs_norm2() = 0;  // (f, f)
  // x <- x - tau w (the previous correction), then r = A x - f; returns (r, r).
  virtual double update_and_residual(double tau) = 0;
  // (D r, r) / (D^-1 R2 r, R2 r): the w~ formula of eq. (5) applied to the first residual.
  virtual double omega_from_residual() = 0;
  // w = B^-1 r for this omega, then the inner products of eq. (5).
  virtual Dots correction(double omega) = 0;
  // w = B^-1 r for this omega alone: the two triangular sweeps, no inner product (the
  // iteration with given parameters).
  virtual void precondition(double omega) = 0;
};

struct IterationSettings {
  double tolerance = 1e-8;  // on ||A x - f|| / ||f||
  std::int64_t max_iterations = 1000;
  double omega0 = 0.0;  // 0: from the first residual
  // Given parameters: every iteration x <- x - tau B(omega)^-1 (A x - f) with these, none of
  // eq. (5)'s inner products formed (the paper's MATM with known omega and tau).
  bool given = false;
  double omega = 0.0, tau = 0.0;
  // Called after each iteration with its relative residual (LinearSolver::report_iteration).
  std::function<void(std::int64_t, double)> on_iteration;
};

// The floating-point operations per active node of one iteration, counted from the node
// functions of split_operator.hpp that the CPU loops and the CUDA kernels evaluate (each
// term below names the function and what it computes). Both back ends run these functions
// once per node and phase; only the operations on nodes, not on lines or ranks, count.
struct OperationCount {
  int update = 0;         // x - tau w (UpdatedValues)
  int residual = 0;       // r = A x - f and (r, r) (apply_node, symmetric_products)
  int sweeps = 0;         // w = B^-1 r: the lower and the upper sweep (sweep_factors, sweep_node)
  int inner_products = 0;  // eq. (5): A0 w (A1 w), its dots (ProductSums) and B^-1 A0 w (A1 w)
  int total() const { return update + residual + sweeps + inner_products; }
};
OperationCount operations_per_node(bool given, bool self_adjoint);

// The keys both MATM solvers read from their TOML section.
Schema iteration_schema();
// `fragments`: over several ranks, the pieces of axis 1 a triangular sweep is pipelined in.
ParamSpec fragments_parameter();
// `coupling`: over several ranks, "pipeline" (the sweeps of the whole grid, passed from
// rank to rank) or "block" (each rank sweeps its block alone).
ParamSpec coupling_parameter();
// The settings of `p`; `solver` names the solver in the ConfigError of a contradiction
// (given parameters without omega and tau, or omega and tau for the variational iteration).
IterationSettings iteration_settings(const solvent::Parameters& p, const std::string& solver);

struct Outcome {
  SolveStats stats;
  StepParameters last;  // the parameters of the last iteration taken
  bool self_adjoint = true;
};

// x (inside the backend) carries the initial guess in and the last iterate out, also when
// the iteration stops unconverged.
Outcome iterate(MatmBackend& backend, const IterationSettings& s);

// What a solver adds to the run record about its last solve, with the operations per node of
// one of its iterations.
Facts outcome_facts(const Outcome& o, const IterationSettings& s);

}  // namespace solvent::matm
