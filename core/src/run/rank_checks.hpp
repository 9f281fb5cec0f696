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

// On rank 0, a warning naming the ranks held to one core of a host that has more cores than
// this run has ranks while their OpenMP thread count was not chosen (mpirun's default
// binding with up to two ranks): their set-up, CPU solvers and output would run on that core
// alone. Empty elsewhere and where no rank is held so. Every rank calls it.
std::string binding_warning(const Communicator& comm);

}  // namespace solvent
