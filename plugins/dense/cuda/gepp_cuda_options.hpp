#pragma once
// gepp-cuda's TOML options: a `mode` preset (paper or best) and one switch per
// improvement over De Luca et al., each of which overrides the preset when written; or
// mode = "blocked" (the blocked LU) with its block_size.
#include <solvent/parameters.hpp>
#include "cuda/device_gepp.hpp"

#include <string>

namespace solvent::dense {

solvent::Schema gepp_cuda_schema();
// Throws solvent::ConfigError for a switch that does not apply to the mode.
EngineOptions read_engine_options(const solvent::Parameters& p);
// One line naming every switch, for the log and the run record.
std::string describe(const EngineOptions& o);

}  // namespace solvent::dense
