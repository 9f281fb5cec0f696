#pragma once
#include <string>

namespace solvent {
// The machine a run happened on, for the run record.
struct HostInfo {
  std::string hostname, os, cpu, gpus;
  unsigned cores = 0;
  // The cores this process may run on (its CPU affinity): mpirun binds each rank to one core
  // by default with up to two ranks, and OpenMP then starts one thread per allowed core.
  unsigned cores_allowed = 0;
  unsigned threads = 0;  // OpenMP threads the plugins run with
};
HostInfo probe_host();
}  // namespace solvent
