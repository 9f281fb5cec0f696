#include "commands.hpp"

#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

namespace solvent::cli {

int plugins_command(const Args& args) {
  std::vector<std::filesystem::path> dirs;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--path" && i + 1 < args.size())
      dirs.emplace_back(args[++i]);
    else
      throw ConfigError({fmt::format("solvent plugins: unexpected argument '{}'", args[i])});
  }
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

}  // namespace solvent::cli
