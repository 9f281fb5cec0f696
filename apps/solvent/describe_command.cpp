#include "commands.hpp"

#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

namespace solvent::cli {

namespace {
std::string value_text(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::string>) return fmt::format("\"{}\"", x);
        else if constexpr (std::is_same_v<X, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<X, std::vector<std::string>>) return fmt::format("[\"{}\"]", fmt::join(x, "\", \""));
        else if constexpr (std::is_same_v<X, std::int64_t> || std::is_same_v<X, double>) return fmt::format("{}", x);
        else return fmt::format("[{}]", fmt::join(x, ", "));
      },
      v);
}

std::string range_text(const ParamSpec& s) {
  std::string r;
  if (s.min) r += fmt::format("{} {}", s.min_exclusive ? ">" : ">=", *s.min);
  if (s.max) r += fmt::format("{}{} {}", r.empty() ? "" : ", ", s.max_exclusive ? "<" : "<=", *s.max);
  if (!s.choices.empty()) r += fmt::format("one of {}", fmt::join(s.choices, "|"));
  return r;
}
}  // namespace

int describe_command(const Args& args) {
  if (args.size() != 1) throw ConfigError({"solvent describe: give one plugin name"});
  PluginRegistry registry(PluginRegistry::default_search_path());
  const PluginLibrary* found = nullptr;
  for (auto kind : {PluginKind::Model, PluginKind::Integrator, PluginKind::LinearSolver}) {
    for (const auto& n : registry.names(kind))
      if (n == args[0]) found = &registry.find(n, kind);
  }
  if (found == nullptr) {
    std::vector<std::string> all;
    for (auto kind : {PluginKind::Model, PluginKind::Integrator, PluginKind::LinearSolver})
      for (auto& n : registry.names(kind)) all.push_back(n);
    auto near = nearest(args[0], all);
    throw PluginError(fmt::format("no plugin named '{}'{} (available: {})", args[0],
                                  near.empty() ? "" : fmt::format("; did you mean '{}'?", near),
                                  fmt::join(all, ", ")));
  }
  const auto* d = found->descriptor;
  std::printf("%s %s — %s plugin (%s)\n  %s\n  library: %s\n\n", d->name, d->version,
              std::string(to_string(d->kind)).c_str(), d->device, d->summary, found->path.c_str());
  std::printf("parameters (TOML section [%s]):\n", std::string(to_string(d->kind)).c_str());
  for (const auto& s : d->schema()) {
    std::printf("  %-22s %-17s default %s%s%s\n", s.name.c_str(), std::string(to_string(s.type)).c_str(),
                value_text(s.default_value).c_str(), s.unit.empty() ? "" : (" " + s.unit).c_str(),
                range_text(s).empty() ? "" : ("  (" + range_text(s) + ")").c_str());
    std::printf("  %-22s %s\n", "", s.doc.c_str());
  }
  return 0;
}

}  // namespace solvent::cli
