#pragma once
// The plugin objects of one configuration, and whether they fit together: model family ×
// integrator × linear solver × preconditioner × scalar type, checked from what each plugin
// declares (Integrator::system_form, LinearSolver::forms, Preconditioner::forms, devices),
// before anything runs — by `solvent validate` and by `solvent run` alike.
#include "config/config_validation.hpp"

#include <solvent/phase_timer.hpp>
#include <solvent/plugin.hpp>

#include <memory>
#include <string>
#include <vector>

namespace solvent {

struct PluginSet {
  std::shared_ptr<Model> model;
  std::shared_ptr<Integrator> integrator;
  std::shared_ptr<LinearSolver> linear_solver;  // null when the configuration has none
  std::shared_ptr<Preconditioner> preconditioner;
  // Every rank's measured speed when [run] balance = "measured" over ranks, else empty.
  std::vector<double> rank_speeds;
};

// What a plugin of `r`'s role is made with, over the run's ranks.
PluginContext context_for(const ResolvedRole& r, const Communicator& comm = single_rank());

// Creates the configured objects (a model may read its input files here: InputError). With a
// timer, the record's phases: "model" (the model made: a grid model assembles its operator,
// a mesh model reads its mesh), "calibration" (balance = "measured": each rank's speed and
// links) and "plugins" (the other plugins made, their libraries loaded).
PluginSet create_plugins(const ResolvedConfig& cfg, const Communicator& comm = single_rank(),
                         PhaseTimer* timer = nullptr);

// Every reason the combination cannot run, each at the `type` line of the offending section
// and naming both plugins; empty when it fits.
std::vector<std::string> combination_problems(const ResolvedConfig& cfg, const PluginSet& p);

// What fits but will not do what the configuration may suggest (a preconditioner configured
// for a direct solver is not used, so that switching `type` to a direct solver stays one
// line); each at its `type` line.
std::vector<std::string> combination_notes(const ResolvedConfig& cfg, const PluginSet& p);

}  // namespace solvent
