#pragma once
// The MATM iteration of Sukhinov et al. eq. (5), written once over the vector work it needs;
// the CPU solver and the CUDA solver each provide that work (MatmBackend) and share
// everything else: the parameter choice, the stopping rule, the history, the status.
#include <solvent/linear_solver.hpp>
#include <solvent/parameters.hpp>
#include <solvent_matm/iteration_parameters.hpp>

#include <cstdint>

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
};

struct IterationSettings {
  double tolerance = 1e-8;  // on ||A x - f|| / ||f||
  std::int64_t max_iterations = 1000;
  double omega0 = 0.0;  // 0: from the first residual
};

// The keys both MATM solvers read from their TOML section.
Schema iteration_schema();
// `fragments`: over several ranks, the pieces of axis 1 a triangular sweep is pipelined in.
ParamSpec fragments_parameter();
// `coupling`: over several ranks, "pipeline" (the sweeps of the whole grid, passed from
// rank to rank) or "block" (each rank sweeps its block alone).
ParamSpec coupling_parameter();
IterationSettings iteration_settings(const solvent::Parameters& p);

struct Outcome {
  SolveStats stats;
  StepParameters last;  // the parameters of the last iteration taken
};

// x (inside the backend) carries the initial guess in and the last iterate out, also when
// the iteration stops unconverged.
Outcome iterate(MatmBackend& backend, const IterationSettings& s);

// What a solver adds to the run record about its last solve.
Facts outcome_facts(const Outcome& o);

}  // namespace solvent::matm
