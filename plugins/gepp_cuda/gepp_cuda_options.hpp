#pragma once
// gepp-cuda's TOML options: a `mode` preset (paper or best) and one switch per
// improvement over seed 000, each of which overrides the preset when written.
#include <gepp_cuda/device_gepp.hpp>
#include <solvent/parameters.hpp>

#include <string>

namespace gepp_cuda {

solvent::Schema gepp_cuda_schema();
EngineOptions read_engine_options(const solvent::Parameters& p);
// One line naming every switch, for the log and the run record.
std::string describe(const EngineOptions& o);

}  // namespace gepp_cuda
