#pragma once
// What a run over ranks checks and records of its ranks, beside the run driver: the plugins
// that cannot run on this many ranks, and each rank's host, threads and GPU.
#include <solvent/communicator.hpp>

#include <string>
#include <vector>

namespace solvent {

struct ResolvedConfig;

// The plugins of `cfg` that cannot run on `ranks` ranks, each at its type line.
std::vector<std::string> rank_problems(const ResolvedConfig& cfg, int ranks);

// "host, N threads" of this rank, gathered for the record.
std::vector<std::string> describe_ranks(const Communicator& comm);

}  // namespace solvent
