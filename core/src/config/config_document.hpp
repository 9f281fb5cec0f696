#pragma once
// A configuration as the user wrote it: the TOML file plus `--set section.key=value`
// overrides applied on top, every value keeping where it came from (file:line:col).
#include <toml++/toml.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace solvent {

struct ConfigDocument {
  std::filesystem::path file;
  toml::table table;
};

// Throws ConfigError (file:line:col) on a TOML syntax error or a malformed override.
ConfigDocument load_config_document(const std::filesystem::path& file,
                                    const std::vector<std::string>& overrides);

// The same from TOML text, read as if it were `file` (which need not exist): its messages
// name `file`, and the configuration's relative paths resolve from its folder.
ConfigDocument parse_config_document(std::string_view text, const std::filesystem::path& file,
                                     const std::vector<std::string>& overrides);

// "file:line:col" for a node, or "--set" for a value from the command line.
std::string where(const toml::node& node);

}  // namespace solvent
