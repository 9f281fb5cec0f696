#include "commands.hpp"

#include "plugin_registry.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace solvent::cli {

namespace {
int list_plugins(std::vector<std::filesystem::path> dirs) {
  for (auto& d : PluginRegistry::default_search_path()) dirs.push_back(std::move(d));
  PluginRegistry registry(dirs);
  std::printf("search path:\n");
  for (const auto& d : registry.search_path()) std::printf("  %s\n", d.c_str());
  auto plugins = registry.plugins();
  std::sort(plugins.begin(), plugins.end(), [](const auto& a, const auto& b) {
    return std::tie(a.descriptor->kind, a.path) < std::tie(b.descriptor->kind, b.path);
  });
  std::printf("\n%-14s %-20s %-8s %-5s %s\n", "kind", "name", "version", "dev", "library");
  for (const auto& p : plugins) {
    const auto* d = p.descriptor;
    std::printf("%-14s %-20s %-8s %-5s %s\n", std::string(to_string(d->kind)).c_str(), d->name,
                d->version, d->device, p.path.c_str());
    std::printf("%-14s   %s\n", "", d->summary);
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
  auto* plugins =
      app.add_subcommand("plugins", "List the plugins found, where, and why any library was skipped.");
  plugins->add_option("--path", *dirs, "search DIR before the default search path; repeatable")
      ->type_name("DIR")
      ->allow_extra_args(false);  // one DIR per --path
  return {plugins, [dirs] { return list_plugins({dirs->begin(), dirs->end()}); }};
}

}  // namespace solvent::cli
