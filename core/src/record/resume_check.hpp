#pragma once
// --resume continues the experiment an output folder holds and nothing else: what the run's
// record and resolved configuration there must agree with before a run continues it.
#include "config/config_validation.hpp"

#include <solvent/integrator.hpp>

#include <cstdint>
#include <filesystem>
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
// way.
ResumePlan check_resume(const std::filesystem::path& dir, const ResolvedConfig& cfg,
                        const std::string& resolved, const Integrator& integrator);

}  // namespace solvent
