// solvent: runs numerical experiments described by TOML files, with every model,
// integrator and linear solver loaded from a plugin.
#include "commands.hpp"

#include <solvent/abi.hpp>
#include <solvent/errors.hpp>

#include <cstdio>
#include <iostream>

namespace {

constexpr const char* usage = R"(solvent — numerical experiments from one TOML file, with swappable plugins

usage:
  solvent run FILE [--set section.key=value]... [--output DIR] [--overwrite] [--progress|--no-progress]
  solvent run --resume DIR        continue a checkpointed run in DIR
  solvent validate FILE [--set section.key=value]...
  solvent plugins [--path DIR]... list plugins found, and why any library was skipped
  solvent describe NAME           parameters of a plugin: types, defaults, ranges, docs
  solvent --version | --help

Plugins are searched in the config's [plugins] path, then SOLVENT_PLUGIN_PATH
(colon-separated), then next to the Solvent core library.

exit codes: 0 success, 1 other error, 2 configuration error, 3 plugin error,
4 malformed input file, 5 solver failure, 6 not converged or diverged, 7 no device
)";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> all(argv, argv + argc);
  if (argc < 2 || all[1] == "--help" || all[1] == "-h" || all[1] == "help") {
    std::fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (all[1] == "--version") {
    std::printf("solvent %s (plugin ABI %u)\n", solvent::version_string(),
                solvent::plugin_abi_version);
    return 0;
  }
  const std::string cmd = all[1];
  const solvent::cli::Args rest(all.begin() + 2, all.end());
  try {
    if (cmd == "run") return solvent::cli::run_command(rest, all);
    if (cmd == "validate") return solvent::cli::validate_command(rest);
    if (cmd == "plugins") return solvent::cli::plugins_command(rest);
    if (cmd == "describe") return solvent::cli::describe_command(rest);
    std::fprintf(stderr, "solvent: unknown command '%s' (try solvent --help)\n", cmd.c_str());
    return 2;
  } catch (const solvent::ConfigError& e) {
    for (const auto& p : e.problems()) std::fprintf(stderr, "error: %s\n", p.c_str());
    std::fprintf(stderr, "%zu configuration error%s; nothing was run\n", e.problems().size(),
                 e.problems().size() == 1 ? "" : "s");
    return e.exit_code();
  } catch (const solvent::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
