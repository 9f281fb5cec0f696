#include "commands.hpp"

#include "config/config_validation.hpp"
#include "loader/plugin_registry.hpp"
#include "sweep/sweep_plan.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

namespace solvent::cli {

namespace {
std::string value_text(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::string>)
          return fmt::format("\"{}\"", x);
        else if constexpr (std::is_same_v<X, bool>)
          return x ? "true" : "false";
        else if constexpr (std::is_same_v<X, std::vector<std::string>>)
          return fmt::format("[\"{}\"]", fmt::join(x, "\", \""));
        else if constexpr (std::is_same_v<X, std::int64_t> || std::is_same_v<X, double>)
          return fmt::format("{}", x);
        else
          return fmt::format("[{}]", fmt::join(x, ", "));
      },
      v);
}

std::string range_text(const ParamSpec& s) {
  std::string r;
  if (s.min) r += fmt::format("{} {}", s.min_exclusive ? ">" : ">=", *s.min);
  if (s.max)
    r += fmt::format("{}{} {}", r.empty() ? "" : ", ", s.max_exclusive ? "<" : "<=", *s.max);
  if (!s.choices.empty()) r += fmt::format("one of {}", fmt::join(s.choices, "|"));
  return r;
}

void print_schema(const Schema& schema) {
  if (schema.empty()) std::printf("  no parameters\n");
  for (const auto& s : schema) {
    std::printf("  %-22s %-17s default %s%s%s\n", s.name.c_str(),
                std::string(to_string(s.type)).c_str(), value_text(s.default_value).c_str(),
                s.unit.empty() ? "" : (" " + s.unit).c_str(),
                range_text(s).empty() ? "" : ("  (" + range_text(s) + ")").c_str());
    std::printf("  %-22s %s\n", "", s.doc.c_str());
  }
}

constexpr PluginKind kinds[] = {PluginKind::Model, PluginKind::Integrator,
                                PluginKind::LinearSolver, PluginKind::Preconditioner};

// What the core itself reads in a plugin's section, besides the plugin's own keys: `type`,
// and in [linear_solver] the core's policy keys.
void print_core_keys(const PluginRegistry& registry, PluginKind kind) {
  const auto section = std::string(to_string(kind));
  std::printf("core keys (TOML section [%s], any %s plugin):\n", section.c_str(), section.c_str());
  std::printf("  %-22s %-17s %s\n", "type", "string",
              fmt::format("one of {}{}", fmt::join(registry.names(kind), "|"),
                          kind == PluginKind::Model || kind == PluginKind::Integrator
                              ? ""
                              : "|none  (none: no section)")
                  .c_str());
  std::printf("  %-22s %s\n", "",
              "The plugin this section configures; its own keys may also sit in a sub-table "
              "named after it ([section.NAME]), so that switching type is one line");
  if (kind == PluginKind::LinearSolver) print_schema(linear_solver_core_schema());
}

// The core's own sections: [run], [plugins], [output], [sweep]; the plugin sections by
// their role's name ([linear_solver]: its core keys and the plugins that fit).
bool describe_section(const PluginRegistry& registry, const std::string& name) {
  const std::pair<const char*, const Schema*> sections[] = {
      {"run", &run_schema()}, {"plugins", &plugins_schema()}, {"output", &output_schema()},
      {"sweep", &sweep_schema()}};
  for (const auto& [section, schema] : sections) {
    if (name != section) continue;
    std::printf("[%s] — a section of the core\n\nparameters (TOML section [%s]):\n", section,
                section);
    print_schema(*schema);
    if (name == "sweep")
      std::printf("\n  Every other entry mirrors the configuration with a list where a single "
                  "value would be\n  ([sweep.model.parameters] k1 = [0.5, 1.0]), or { linspace "
                  "= [lo, hi, n] }, { logspace = [lo, hi, n] },\n  { uniform = [lo, hi] } "
                  "(random mode).\n");
    return true;
  }
  for (const auto kind : kinds) {
    if (name != to_string(kind)) continue;
    print_core_keys(registry, kind);
    std::printf("\nthe plugins' own keys: solvent describe NAME\n");
    return true;
  }
  return false;
}

int describe_plugin(const std::string& name) {
  PluginRegistry registry(PluginRegistry::default_search_path());
  const PluginLibrary* found = nullptr;
  for (auto kind : kinds) {
    for (const auto& n : registry.names(kind))
      if (n == name) found = &registry.find(n, kind);
  }
  if (found == nullptr && describe_section(registry, name)) return 0;
  if (found == nullptr) {
    std::vector<std::string> all = config_sections();
    all.push_back("sweep");
    for (auto kind : kinds)
      for (auto& n : registry.names(kind)) all.push_back(n);
    auto near = nearest(name, all);
    throw PluginError(fmt::format("no plugin or section named '{}'{} (available: {})", name,
                                  near.empty() ? "" : fmt::format("; did you mean '{}'?", near),
                                  fmt::join(all, ", ")));
  }
  const auto* d = found->descriptor;
  std::printf("%s %s — %s plugin (%s)\n  %s\n  library: %s\n\n", d->name, d->version,
              std::string(to_string(d->kind)).c_str(), d->device, d->summary, found->path.c_str());
  std::printf("parameters (TOML section [%s]):\n", std::string(to_string(d->kind)).c_str());
  print_schema(d->schema());
  std::printf("\n");
  print_core_keys(registry, d->kind);
  return 0;
}
}  // namespace

Command add_describe_command(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  auto* describe =
      app.add_subcommand("describe", "Show the parameters of a plugin or of a section of the core "
                                     "(run, plugins, output, sweep, linear_solver, ...): types, "
                                     "defaults, ranges, docs.");
  describe->add_option("NAME", *name, "a plugin's name, as solvent plugins lists it, or a section's")
      ->type_name("")
      ->required();
  return {describe, [name] { return describe_plugin(*name); }};
}

}  // namespace solvent::cli
