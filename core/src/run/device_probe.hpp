#pragma once
// Whether this machine can run a plugin that works on a CUDA GPU only, asked before
// anything runs, so that `solvent validate` refuses such a configuration as the run would.
#include "config/config_validation.hpp"

#include <string>

namespace solvent {

// Why no CUDA device can be used here ("no NVIDIA driver: libcuda.so.1: cannot open shared
// object file", "the driver sees no CUDA device: ..."); empty when one can.
std::string cuda_absence();

// The configured plugins that run on a CUDA GPU only (a linear solver with a configured
// fallback excepted: the run falls back), each at its type line with what to use instead;
// empty where a device can be used or none is configured. Probes only when one is.
std::string gpu_only_problem(const ResolvedConfig& cfg);

}  // namespace solvent
