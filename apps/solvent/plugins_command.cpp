#include "commands.hpp"

#include "loader/plugin_registry.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>

namespace solvent::cli {

namespace {
// The README's plugin table is this output, so the two cannot drift apart (a test compares
// them): one row per plugin, by kind then name.
void print_markdown(std::vector<PluginInfo> plugins) {
  std::sort(plugins.begin(), plugins.end(), [](const auto& a, const auto& b) {
    return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
  });
  std::printf("| name | kind | device | what it is |\n|---|---|---|---|\n");
  for (const auto& p : plugins) {
    std::printf("| `%s` | %s | %s | %s |\n", p.name.c_str(), std::string(to_string(p.kind)).c_str(),
                p.device.c_str(), p.summary.c_str());
  }
}

int list_plugins(std::vector<std::filesystem::path> dirs, bool markdown) {
  for (auto& d : PluginRegistry::default_search_path()) dirs.push_back(std::move(d));
  const PluginRegistry registry(dirs);
  if (markdown) {
    print_markdown(registry.plugins());
    return 0;
  }
  std::printf("search path:\n");
  for (const auto& d : registry.search_path()) std::printf("  %s\n", d.c_str());
  auto plugins = registry.plugins();
  std::sort(plugins.begin(), plugins.end(), [](const auto& a, const auto& b) {
    return std::tie(a.kind, a.path) < std::tie(b.kind, b.path);
  });
  std::printf("\n%-14s %-20s %-8s %-5s %s\n", "kind", "name", "version", "dev", "library");
  for (const auto& p : plugins) {
    std::printf("%-14s %-20s %-8s %-5s %s\n", std::string(to_string(p.kind)).c_str(),
                p.name.c_str(), p.version.c_str(), p.device.c_str(), p.path.c_str());
    std::printf("%-14s   %s\n", "", p.summary.c_str());
    // Runs over MPI ranks: what a user of `mpirun -n N` looks for (the others run on one).
    if (p.max_ranks != 1)
      std::printf("%-14s   %s\n", "",
                  p.max_ranks == 0 ? "runs on any number of ranks (mpirun -n N)"
                                   : fmt::format("runs on up to {} ranks", p.max_ranks).c_str());
  }
  if (!registry.shadowed().empty()) {
    std::printf("\nshadowed (a library earlier on the search path has the same kind and name):\n");
    for (const auto& s : registry.shadowed())
      std::printf("  %s: %s '%s', used from %s\n", s.plugin.path.c_str(),
                  std::string(to_string(s.plugin.kind)).c_str(), s.plugin.name.c_str(),
                  s.by.c_str());
  }
  if (!registry.skipped().empty()) {
    std::printf("\nskipped:\n");
    for (const auto& s : registry.skipped()) std::printf("  %s\n", s.reason.c_str());
  }
  return 0;
}
}  // namespace

Command add_plugins_command(CLI::App& app) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto markdown = std::make_shared<bool>(false);
  auto* plugins = app.add_subcommand(
      "plugins", "List the plugins found, where, and why any library was skipped.");
  plugins->add_option("--path", *dirs, "search DIR before the default search path; repeatable")
      ->type_name("DIR")
      ->allow_extra_args(false);  // one DIR per --path
  plugins->add_flag("--markdown", *markdown, "print a Markdown table: name, kind, device, summary");
  return {plugins, [dirs, markdown] {
            return list_plugins({dirs->begin(), dirs->end()}, *markdown);
          }};
}

}  // namespace solvent::cli
