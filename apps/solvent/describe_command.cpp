#include "commands.hpp"

#include "loader/plugin_registry.hpp"

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

int describe_plugin(const std::string& name) {
  PluginRegistry registry(PluginRegistry::default_search_path());
  const PluginLibrary* found = nullptr;
  for (auto kind : {PluginKind::Model, PluginKind::Integrator, PluginKind::LinearSolver,
                    PluginKind::Preconditioner}) {
    for (const auto& n : registry.names(kind))
      if (n == name) found = &registry.find(n, kind);
  }
  if (found == nullptr) {
    std::vector<std::string> all;
    for (auto kind : {PluginKind::Model, PluginKind::Integrator, PluginKind::LinearSolver,
                    PluginKind::Preconditioner})
      for (auto& n : registry.names(kind)) all.push_back(n);
    auto near = nearest(name, all);
    throw PluginError(fmt::format("no plugin named '{}'{} (available: {})", name,
                                  near.empty() ? "" : fmt::format("; did you mean '{}'?", near),
                                  fmt::join(all, ", ")));
  }
  const auto* d = found->descriptor;
  std::printf("%s %s — %s plugin (%s)\n  %s\n  library: %s\n\n", d->name, d->version,
              std::string(to_string(d->kind)).c_str(), d->device, d->summary, found->path.c_str());
  std::printf("parameters (TOML section [%s]):\n", std::string(to_string(d->kind)).c_str());
  for (const auto& s : d->schema()) {
    std::printf("  %-22s %-17s default %s%s%s\n", s.name.c_str(),
                std::string(to_string(s.type)).c_str(), value_text(s.default_value).c_str(),
                s.unit.empty() ? "" : (" " + s.unit).c_str(),
                range_text(s).empty() ? "" : ("  (" + range_text(s) + ")").c_str());
    std::printf("  %-22s %s\n", "", s.doc.c_str());
  }
  return 0;
}
}  // namespace

Command add_describe_command(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  auto* describe =
      app.add_subcommand("describe", "Show a plugin's parameters: types, defaults, ranges, docs.");
  describe->add_option("NAME", *name, "a plugin's name, as solvent plugins lists it")
      ->type_name("")
      ->required();
  return {describe, [name] { return describe_plugin(*name); }};
}

}  // namespace solvent::cli
