#pragma once
// One run of an experiment: resolve and validate the config, create the plugin objects,
// prepare the output directory, run the integrator, write the run record.
#include "config/config_document.hpp"

#include <solvent/integrator.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace solvent {

// --progress=auto (the default): a bar on a terminal, nothing otherwise; bar: a line redrawn
// in place; lines: a plain line every progress_every seconds; off: nothing. Always is the
// bare --progress: a bar on a terminal, lines otherwise.
enum class ProgressMode { Auto, Always, Bar, Lines, Never };

struct RunOptions {
  std::filesystem::path config;                     // empty with `resume`: DIR/config.toml
  std::vector<std::string> overrides;               // --set section.key=value
  std::optional<std::filesystem::path> output_dir;  // --output DIR
  std::optional<std::filesystem::path> resume;      // --resume DIR
  // With `resume`, where the caller holds the state to continue from (a sweep's batch
  // checkpoint, sweep/batched_groups.hpp): its step, in place of the integrator's own file.
  std::optional<std::int64_t> resume_step;
  // How an interrupted run is continued where not by its own --resume (a member of a sweep's
  // batch continues with its sweep); empty: `solvent run --resume DIR`, where the integrator
  // writes checkpoints.
  std::string continue_with;
  bool overwrite = false;                           // --overwrite: replace an earlier run
  ProgressMode progress = ProgressMode::Auto;
  double progress_every = 10.0;  // seconds between progress lines
  bool log_per_rank = false;  // --log-per-rank: each rank's log as log.rank-N.txt too
  std::vector<std::string> argv;  // for the record
  // Makes the configuration to run instead of reading `config`: a sweep's member, which the
  // sweep resolves from its file (the driver runs one configuration and knows no sweeps), or
  // TOML text read as that file. A maker, not a document: TOML++ keeps no source positions
  // in a copy, and a key's position says where its relative paths start and where its
  // problems are reported.
  std::function<ConfigDocument()> document;
  // The ranks the run goes over; null: the world (the processes mpirun started, else one).
  // A program embedding Solvent passes a part of its world (communicator_of); it outlives
  // the run.
  const Communicator* comm = nullptr;
};

struct RunSummary {
  std::filesystem::path output_dir;
  std::string model, integrator, linear_solver;
  std::int64_t steps = 0;
  double t = 0.0;
  double wall_seconds = 0.0;
  bool steady = false;  // one solve of a linear problem, not steps in time
  // The linear solver's last solve, how many there were, and the seconds of the "solve"
  // phase (where the integrator times one); empty without a linear solver.
  std::optional<SolveStats> last_solve;
  std::int64_t solves = 0;
  std::optional<double> solve_seconds;
};

struct ResolvedConfig;
// --resume DIR, else --output DIR, else [output] directory, else out/<run name>.
std::filesystem::path choose_output_dir(const RunOptions& options, const ResolvedConfig& cfg);

// How run_experiment calls the integrator; empty: integrator.run(model, solver, ctx). A sweep
// whose members were advanced together passes one that reports the member's recorded steps
// (sweep/batched_groups.hpp), so the member's folder is written as its own run writes it.
using IntegratorCall = std::function<RunResult(Integrator&, Model&, LinearSolver*, RunContext&)>;

// Throws solvent::Error (ConfigError, PluginError, SolverError, DivergenceError, ...).
RunSummary run_experiment(const RunOptions& options, const IntegratorCall& call = {});

}  // namespace solvent
