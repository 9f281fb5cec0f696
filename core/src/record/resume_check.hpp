#pragma once
// --resume continues the experiment an output folder holds and nothing else: what the run's
// record and resolved configuration there must agree with before a run continues it.
#include "config/config_validation.hpp"

#include <solvent/integrator.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace solvent {

struct ResumePlan {
  bool extends = false;
  std::string earlier;  // how the earlier run ended, for the log
  std::int64_t checkpoint_step = 0;
};

// The configuration `resolved` (cfg as written to config.toml) must be the recorded one (by
// hash, and key by key to say what differs), except a larger integrator.steps, which
// extends the run; the integrator must write checkpoints and have left one in `dir`, and the
// run must not have completed unless it is extended. A ConfigError says what stands in the
// way. `held_step`: the state to continue from is held by the caller at that step (a sweep's
// batch checkpoint), not in the integrator's own file in `dir`.
ResumePlan check_resume(const std::filesystem::path& dir, const ResolvedConfig& cfg,
                        const std::string& resolved, const Integrator& integrator,
                        std::optional<std::int64_t> held_step = std::nullopt);

}  // namespace solvent
