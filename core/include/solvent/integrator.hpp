#pragma once
// Integrator: advances (or solves) a model, reporting every step to the observer.
#include <solvent/communicator.hpp>
#include <solvent/io/field_output.hpp>
#include <solvent/linear_solver.hpp>
#include <solvent/model.hpp>
#include <solvent/observer.hpp>
#include <solvent/phase_timer.hpp>
#include <solvent/plugin_object.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>

namespace spdlog {
class logger;
}

namespace solvent {

struct RunContext {
  std::filesystem::path output_dir;                  // files an integrator writes itself go here
  std::uint64_t seed = 0;                            // [run] seed
  std::optional<std::filesystem::path> resume_from;  // `solvent run --resume DIR`
  Observer* observer = nullptr;
  PhaseTimer* timer = nullptr;
  spdlog::logger* log = nullptr;
  // The run's ranks; one unless started by mpirun. Rank 0 alone writes the core's outputs
  // (record, observables); a distributed integrator reports global observables on every rank.
  const Communicator* comm = &single_rank();
  // Where an integrator writes the fields it writes itself, in the run's [output] format
  // (io/field_output.hpp); null: nowhere (a run without field output).
  FieldOutput* fields = nullptr;
};

struct RunResult {
  std::int64_t steps = 0;
  double t = 0.0;
  SolveStats last_solve;  // steady integrators: the solve; time steppers: the last step's
};

class Integrator : public PluginObject {
 public:
  // Whether this integrator can advance the model; if not, `why` says what is missing.
  virtual bool accepts(Model& model, std::string& why) const = 0;
  virtual bool needs_linear_solver() const { return true; }
  // The form of the operator this integrator will hand its linear solver for this model,
  // where it can say before running; `solvent validate` checks the solver against it.
  virtual std::optional<OperatorForm> system_form(Model& /*model*/) const { return std::nullopt; }
  // Throws SolverError, DivergenceError on a failure it detects (naming the step).
  virtual RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) = 0;
  // Checkpoints: an integrator that writes them into the output directory can continue a
  // run from the last one (`solvent run --resume DIR`, RunContext::resume_from), and must
  // then reproduce, from that step on, exactly the outputs of an uninterrupted run.
  virtual bool writes_checkpoints() const { return false; }
  // The step of the checkpoint in `dir`, or nothing where there is none (or it is unreadable).
  virtual std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& /*dir*/) const {
    return std::nullopt;
  }
};

}  // namespace solvent
