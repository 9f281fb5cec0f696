#pragma once
// The subcommands of `solvent`; each returns the process exit code.
#include <string>
#include <vector>

namespace solvent::cli {

using Args = std::vector<std::string>;

int run_command(const Args& args, const Args& argv);   // solvent run FILE [options]
int validate_command(const Args& args);                 // solvent validate FILE [--set ...]
int plugins_command(const Args& args);                  // solvent plugins [--path DIR]
int describe_command(const Args& args);                 // solvent describe NAME

}  // namespace solvent::cli
