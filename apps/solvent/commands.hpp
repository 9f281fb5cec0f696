#pragma once
// The subcommands of `solvent`. Each add_*_command declares its subcommand and options on
// the parser and returns the work to do when the command line names it: that work runs
// only once the whole line has parsed, returns the process exit code, and reports failures
// by throwing solvent::Error.
#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace solvent::cli {

using Args = std::vector<std::string>;

// Under mpirun with several ranks on this host and OMP_NUM_THREADS unset: sets it to the
// allowed cores divided by those ranks and starts the command again (rank_threads.cpp).
void divide_cores_among_local_ranks(char** argv);

struct Command {
  const CLI::App* parser;  // the subcommand, to ask whether it was given
  std::function<int()> execute;
};

Command add_run_command(CLI::App& app, const Args& argv);  // solvent run FILE [options]
Command add_validate_command(CLI::App& app);               // solvent validate FILE [--set ...]
Command add_plugins_command(CLI::App& app);                // solvent plugins [--path DIR]...
Command add_describe_command(CLI::App& app);               // solvent describe NAME
Command add_status_command(CLI::App& app);                 // solvent status DIR
Command add_verify_command(CLI::App& app, const Args& argv);  // solvent verify DIR

}  // namespace solvent::cli
