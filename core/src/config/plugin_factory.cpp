// Plugin creation by name for programs that embed Solvent (the testkit, the benchmarks, a
// Python module): the same search path, schema validation and defaults as `solvent run`,
// with settings given in code instead of a TOML file.
#include <solvent/errors.hpp>
#include <solvent/plugin_factory.hpp>

#include "loader/plugin_registry.hpp"

#include "config/config_validation.hpp"
#include "log/logging.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace solvent::plugins {

namespace {

PluginRegistry& registry() {
  static PluginRegistry r(PluginRegistry::default_search_path());
  return r;
}

toml::table to_table(const Settings& s) {
  toml::table t;
  // Not a structured binding: clang before 16 (the fuzz build) cannot capture one.
  for (const auto& entry : s) {
    const std::string& k = entry.first;
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, bool> || std::is_same_v<X, std::int64_t> ||
                        std::is_same_v<X, double> || std::is_same_v<X, std::string>) {
            t.insert_or_assign(k, x);
          } else {
            toml::array a;
            for (const auto& e : x) a.push_back(e);
            t.insert_or_assign(k, std::move(a));
          }
        },
        entry.second);
  }
  return t;
}

// Settings given in code have no source position, which where() reports as "--set"; they
// are the embedding program's arguments, so their problems start at the plugin's label.
[[noreturn]] void throw_problems(std::vector<std::string> problems) {
  for (auto& p : problems)
    if (p.starts_with("--set: ")) p.erase(0, 7);
  throw ConfigError(std::move(problems));
}

const PluginLibrary& resolve(const std::string& name, PluginKind kind, const Settings& s,
                             PluginContext& ctx) {
  const auto& lib = registry().find(name, kind);
  std::vector<std::string> problems;
  // Dotted keys ("parameters.dC") are written as TOML would nest them.
  toml::table nested;
  for (const auto& [k, v] : to_table(s)) {
    std::string key(k.str());
    toml::table* t = &nested;
    for (auto dot = key.find('.'); dot != std::string::npos; dot = key.find('.')) {
      auto head = key.substr(0, dot);
      if (!t->contains(head)) t->insert(head, toml::table{});
      t = t->get(head)->as_table();
      key = key.substr(dot + 1);
    }
    t->insert_or_assign(key, v);
  }
  ctx.params = check_section(nested, lib.descriptor->schema(),
                             fmt::format("{} '{}'", to_string(kind), name), problems);
  if (!problems.empty()) throw_problems(std::move(problems));
  ctx.log = core_logger();
  return lib;
}

// The plugin `name` of `kind` made with the settings, by the registry's `create` of its kind.
template <class Create>
auto make(const std::string& name, PluginKind kind, const Settings& s, const Communicator& comm,
          Create create) {
  PluginContext ctx;
  ctx.comm = &comm;
  const auto& lib = resolve(name, kind, s, ctx);
  return create(lib, ctx);
}

}  // namespace

std::shared_ptr<LinearSolver> make_linear_solver(const std::string& name, const Settings& s,
                                                 const Communicator& comm) {
  return make(name, PluginKind::LinearSolver, s, comm, create_linear_solver);
}

std::shared_ptr<Preconditioner> make_preconditioner(const std::string& name, const Settings& s,
                                                    const Communicator& comm) {
  return make(name, PluginKind::Preconditioner, s, comm, create_preconditioner);
}

std::shared_ptr<Model> make_model(const std::string& name, const Settings& s,
                                  const Communicator& comm) {
  return make(name, PluginKind::Model, s, comm, create_model);
}

std::shared_ptr<Integrator> make_integrator(const std::string& name, const Settings& s,
                                            const Communicator& comm) {
  return make(name, PluginKind::Integrator, s, comm, create_integrator);
}

SolverPolicy solver_policy(const Settings& s) {
  std::vector<std::string> problems;
  if (s.count("fallback") != 0)
    problems.push_back(
        "linear solver: 'fallback' is a run's key (the run makes the second solver); catch "
        "DeviceUnavailable and make the CPU solver instead");
  auto settings = s;
  settings.erase("fallback");
  const auto core =
      check_section(to_table(settings), linear_solver_core_schema(), "linear solver", problems);
  if (!problems.empty()) throw_problems(std::move(problems));
  return solver_policy_of(core);
}

std::vector<std::string> solver_policy_keys() {
  std::vector<std::string> keys;
  for (const auto& spec : linear_solver_core_schema()) keys.push_back(spec.name);
  return keys;
}

std::vector<std::string> installed(PluginKind kind) { return registry().names(kind); }

bool runs_distributed(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->max_ranks == 0;
}

Schema schema_of(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->schema();
}

std::string device_of(const std::string& name, PluginKind kind) {
  return registry().find(name, kind).descriptor->device;
}

}  // namespace solvent::plugins
