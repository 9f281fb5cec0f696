#include "record/resume_check.hpp"

#include "io/output_dir.hpp"
#include "record/sha256.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace solvent {

namespace fs = std::filesystem;

namespace {

// Every key of a resolved configuration as "section.key" -> its value printed as TOML.
std::map<std::string, std::string> flatten(const toml::table& t, const std::string& prefix = "") {
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : t) {
    const std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table()) {
      out.merge(flatten(*sub, key));
    } else {
      std::ostringstream os;
      v.visit([&](const auto& x) { os << x; });
      out[key] = os.str();
    }
  }
  return out;
}

}  // namespace

ResumePlan check_resume(const fs::path& dir, const ResolvedConfig& cfg, const std::string& resolved,
                        const Integrator& integrator, std::optional<std::int64_t> held_step) {
  const auto state = inspect_output_dir(dir);
  const std::string integrator_name = cfg.integrator->plugin->descriptor->name;
  bool extends = false;
  if (sha256_of(resolved) != state.config_sha256) {
    toml::table recorded;
    try {
      recorded = toml::parse_file((dir / "config.toml").string());
    } catch (const std::exception&) {
      throw ConfigError({fmt::format("--resume: {} is missing or damaged, so the run cannot be "
                                     "checked; rerun with --overwrite",
                                     (dir / "config.toml").string())});
    }
    const auto was = flatten(recorded), now = flatten(cfg.to_toml());
    std::vector<std::string> differ;
    auto value = [](const auto& m, const std::string& k) {
      const auto it = m.find(k);
      return it == m.end() ? std::string("(absent)") : it->second;
    };
    std::set<std::string> keys;
    for (const auto& [k, v] : was) keys.insert(k);
    for (const auto& [k, v] : now) keys.insert(k);
    for (const auto& k : keys) {
      const auto a = value(was, k), b = value(now, k);
      if (a == b) continue;
      if (k == "integrator.steps" && was.count(k) && now.count(k) && std::stoll(b) > std::stoll(a)) {
        extends = true;
        continue;
      }
      differ.push_back(fmt::format("{} (recorded {}, given {})", k, a, b));
    }
    if (!differ.empty()) {
      std::vector<std::string> problems{fmt::format(
          "--resume: the configuration differs from the run in {} (only a larger "
          "integrator.steps may be given):",
          dir.string())};
      for (auto& d : differ) problems.push_back("  " + d);
      throw ConfigError(std::move(problems));
    }
  }
  if (!integrator.writes_checkpoints())
    throw ConfigError({fmt::format(
        "--resume: integrator '{}' writes no checkpoints, so its runs cannot be continued; "
        "rerun with --overwrite",
        integrator_name)});
  if (state.status == "completed" && !extends)
    throw ConfigError({fmt::format(
        "--resume: the run in {} completed at step {}; nothing to continue (to extend it, "
        "give a larger --set integrator.steps)",
        dir.string(), state.steps)});
  const auto checkpoint = held_step ? held_step : integrator.checkpoint_step(dir);
  if (!checkpoint)
    throw ConfigError({fmt::format(
        "--resume: {} holds no checkpoint of integrator '{}' to continue from (the run "
        "stopped before writing one); rerun with --overwrite",
        dir.string(), integrator_name)});
  return {extends,
          state.status == "running" ? "it stopped without finishing"
          : state.status.empty()    ? "its record names no outcome"
                                    : "it was " + state.status,
          *checkpoint};
}

}  // namespace solvent
