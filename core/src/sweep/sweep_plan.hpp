#pragma once
// A sweep: the [sweep] table of an experiment file, which mirrors the configuration with
// lists where single values would be, expanded into its members. Member i's configuration
// is the file (with its --set overrides) minus [sweep], plus member i's value of every swept
// key, each value placed at its sweep entry's line so that a key or value the schema refuses
// is reported there.
#include "config/config_document.hpp"

#include <solvent/parameters.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace solvent {

struct SweptValue {
  std::string toml;   // as TOML text, exactly (a real written to round-trip)
  std::string plain;  // for a table: a string without its quotes
};

struct SweptKey {
  std::vector<std::string> path;  // {"model", "parameters", "k1"}
  std::string name;               // "model.parameters.k1"
  std::string where;              // file:line:col of its entry, or "--set"
  std::uint32_t line = 0, column = 0;
};

struct SweepPlan {
  std::filesystem::path file;
  std::vector<std::string> overrides;  // --set, applied to the file before expanding
  std::string mode;                    // grid, zip, random
  std::int64_t seed = 0;               // [run] seed: the random draws
  std::string batch;  // [sweep] batch: the integrator that advances members together, or empty
  toml::table table;                   // [sweep] as given, for the record
  std::vector<SweptKey> keys;          // in the file's order
  std::vector<std::string> fixed;      // swept keys a --set fixed, so no longer swept
  std::vector<std::vector<SweptValue>> members;  // members[i][k]: member i's value of keys[k]
};

// The keys of [sweep] itself, for `solvent describe sweep` (its other entries mirror the
// configuration, with lists where single values would be).
const Schema& sweep_schema();

// Whether the document has a [sweep] table.
bool has_sweep(const ConfigDocument& doc);

// Reads `file` with `overrides` and expands its [sweep]. Throws ConfigError listing every
// problem of the table, each at its line.
SweepPlan plan_sweep(const std::filesystem::path& file, const std::vector<std::string>& overrides);

// The configuration member `index` runs: the file re-read (so every base key keeps its
// line), [sweep] removed, the member's values set. Throws ConfigError for an index past the
// members.
ConfigDocument member_document(const SweepPlan& plan, std::size_t index);

}  // namespace solvent
