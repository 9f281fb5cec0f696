#pragma once
#include <string>

namespace solvent {
// The machine a run happened on, for the run record.
struct HostInfo {
  std::string hostname, os, cpu, gpus;
  unsigned cores = 0;
  unsigned threads = 0;  // OpenMP threads the plugins run with
};
HostInfo probe_host();
}  // namespace solvent
