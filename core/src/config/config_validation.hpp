#pragma once
// Checks a configuration against the core's schema and each selected plugin's schema,
// reporting every problem at once, and produces the fully resolved configuration.
#include "config/config_document.hpp"
#include "loader/plugin_registry.hpp"

#include <solvent/linear_solver.hpp>
#include <solvent/parameters.hpp>

#include <memory>
#include <optional>

namespace solvent {

struct ResolvedRole {
  std::string type;  // the plugin's name
  const PluginLibrary* plugin = nullptr;
  Parameters params;  // the plugin's own keys
  std::string where;  // file:line:col of its `type`
};

struct ResolvedConfig {
  std::filesystem::path file;
  Parameters run, plugins, output;
  std::optional<ResolvedRole> model, integrator, linear_solver, preconditioner;
  Parameters solver_core;  // the core's keys in [linear_solver] (fallback, conversion, checks)
  std::string fallback;    // [linear_solver] fallback: a CPU solver used when no device
  std::optional<ResolvedRole> fallback_solver;
  std::unique_ptr<PluginRegistry> registry;

  // The folders [plugins] path put first on the search path, absolute.
  const std::vector<std::string>& plugin_dirs() const { return plugins.strings("path"); }

  // Every section and key, defaults included, ready to write as TOML.
  toml::table to_toml() const;
};

// The core's own sections and the keys it owns inside plugin sections.
const Schema& run_schema();
const Schema& plugins_schema();
const Schema& output_schema();
const Schema& linear_solver_core_schema();
// The policy the core gives a linear solver from those keys, checked (on_conversion unset).
SolverPolicy solver_policy_of(const Parameters& core);
// The sections a configuration may have.
const std::vector<std::string>& config_sections();

// Throws ConfigError listing every problem found.
ResolvedConfig resolve_config(const ConfigDocument& doc);

// Validates `table` (a plugin's section, "type" excluded) against `schema`. An unknown key's
// message suggests and lists the schema's keys and `other_valid_keys` (the core's keys of a
// plugin's section, checked elsewhere).
Parameters check_section(const toml::table& table, const Schema& schema, const std::string& label,
                         std::vector<std::string>& problems,
                         const std::vector<std::string>& ignored_keys = {},
                         const std::vector<std::string>& other_valid_keys = {});

}  // namespace solvent
