// The configuration loader on arbitrary bytes: TOML parsing, the --set overrides (leading
// lines "--set section.key=value" of the input), the [sweep] table's members and the checking of
// the document against the core's schemas and the plugin search (no plugins are built next to the
// fuzz targets, so every plugin section is checked as naming an unknown plugin). It may refuse an
// input only with a solvent::Error; anything else escapes and libFuzzer reports it.
#include "input_file.hpp"

#include "config/config_document.hpp"
#include "config/config_validation.hpp"
#include "sweep/sweep_plan.hpp"

#include <solvent/errors.hpp>

#include <spdlog/spdlog.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // [plugins] path warnings, thousands a second
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> overrides;
  constexpr std::string_view set = "--set ";
  while (text.starts_with(set)) {
    const auto end = text.find('\n');
    overrides.emplace_back(
        text.substr(set.size(), end == text.npos ? text.npos : end - set.size()));
    text.remove_prefix(end == text.npos ? text.size() : end + 1);
  }
  // load_config_document reads a file (TOML++ records its path in every node's source).
  const auto file = solvent::fuzz::write_input("config", "input.toml", text.data(), text.size());
  try {
    const auto doc = solvent::load_config_document(file, overrides);
    // A [sweep] table is read into its members (each member's document is then checked
    // as a run's is, when it runs).
    if (solvent::has_sweep(doc))
      solvent::plan_sweep(file, overrides);
    else
      solvent::resolve_config(doc).to_toml();
  } catch (const solvent::Error&) {
  }
  return 0;
}
