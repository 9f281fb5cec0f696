#pragma once
// Which device a rank computes on, read from a plugin's `device` parameter, so that one run
// may mix CPU ranks and GPU ranks (a host's GPUs beside its spare cores):
//   "cpu" or "cuda"          every rank;
//   "auto"                   a GPU for each of a host's first `gpus_on_host` ranks (local
//                            rank below it; CUDA plugins pass the host's GPU count), the CPU
//                            for the rest;
//   "cuda,cpu,cpu"           one entry per rank, in rank order.
#include <solvent/communicator.hpp>

#include <string>

namespace solvent {

enum class RankDevice { Cpu, Cuda };

// Throws ConfigError "<who>: device = \"<spec>\": ..." for an entry that is not cpu or cuda,
// or a list whose length is not the number of ranks (the same on every rank).
RankDevice rank_device(const std::string& spec, const Communicator& comm, int gpus_on_host,
                       const std::string& who);

}  // namespace solvent
