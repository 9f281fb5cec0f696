#pragma once
// Plugins made by name, for a program that embeds Solvent rather than a plugin: the testkit,
// the benchmarks, a Python module. The same search path, schema validation and defaults as
// `solvent run`, with the settings given in code instead of a TOML file. Implemented by the
// framework: link Solvent::framework (a plugin, which links Solvent::core alone, cannot).
//
// Plugins are found on SOLVENT_PLUGIN_PATH, then next to the core library.
// The whole contract: a program that makes plugins uses their interfaces and errors.
#include <solvent/solvent.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace solvent::plugins {

using Settings = std::map<std::string, ParamValue>;  // key -> value, as in a TOML section

// Create a plugin object; settings are validated against the plugin's schema (a bad key
// throws ConfigError) and the object keeps its library loaded for its whole lifetime. `comm`:
// the ranks it runs over (a distributed model takes its block of them).
std::shared_ptr<LinearSolver> make_linear_solver(const std::string& name, const Settings& s = {},
                                                 const Communicator& comm = single_rank());
std::shared_ptr<Preconditioner> make_preconditioner(const std::string& name,
                                                    const Settings& s = {},
                                                    const Communicator& comm = single_rank());
std::shared_ptr<Model> make_model(const std::string& name, const Settings& s = {},
                                  const Communicator& comm = single_rank());
std::shared_ptr<Integrator> make_integrator(const std::string& name, const Settings& s = {},
                                            const Communicator& comm = single_rank());

// The policy a run gives its linear solver from the core's keys of [linear_solver]
// (max_conversion_mib, verify_residual), checked as a run checks them (a bad key throws
// ConfigError). `fallback` is refused here: it names a second solver that a run makes; an
// embedding program catches DeviceUnavailable and makes the CPU solver itself.
SolverPolicy solver_policy(const Settings& s = {});
// The names of those keys, for a program that receives them among a solver's own settings.
std::vector<std::string> solver_policy_keys();

// The names of the plugins of one kind on the search path (each name once).
std::vector<std::string> installed(PluginKind kind);
// A plugin's parameter schema, as `solvent describe` prints it, its device ("cpu", "cuda",
// "any"), and whether it runs on any number of ranks (its descriptor is solvent::distributed).
Schema schema_of(const std::string& name, PluginKind kind);
std::string device_of(const std::string& name, PluginKind kind);
bool runs_distributed(const std::string& name, PluginKind kind);

}  // namespace solvent::plugins
