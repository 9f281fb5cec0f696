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

// Ranks on one host share its cores: where OMP_NUM_THREADS is not set, each rank's OpenMP
// threads become its allowed cores divided by the ranks on its host (at least one), so that
// two ranks of a 32-core host run 16 threads each, not 32 on the same cores. The solvent
// command has done so before OpenMP started where the launcher says how many ranks share the
// host (SOLVENT_THREADS_SHARED, apps/solvent/rank_threads.cpp); this divides them for the
// other callers. On rank 0, the message saying so; empty elsewhere and where nothing
// changed. Every rank calls it, before any plugin reads its thread count.
std::string share_host_cores(const Communicator& comm);

// The OpenMP threads of one of `ranks` ranks sharing a host of `cores` cores, `allowed` of them
// in its affinity: its share of the host, at least one, and no more than it may use (a rank
// bound to its share, mpirun --map-by slot:PE=n, keeps it). The solvent command takes the
// same count before OpenMP starts.
unsigned threads_for_shared_host(unsigned allowed, unsigned cores, unsigned ranks);

// "host, N threads" of this rank, gathered for the record.
std::vector<std::string> describe_ranks(const Communicator& comm);

// On rank 0, a warning naming the ranks held to one core of a host that has more cores than
// this run has ranks while their OpenMP thread count was not chosen (mpirun's default
// binding with up to two ranks): their set-up, CPU solvers and output would run on that core
// alone. Empty elsewhere and where no rank is held so. Every rank calls it.
std::string binding_warning(const Communicator& comm);

}  // namespace solvent
