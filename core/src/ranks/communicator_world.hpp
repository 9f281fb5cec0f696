#pragma once
// The run's communicator, for the core: MPI_COMM_WORLD when started by mpirun, else one rank.
#include <solvent/communicator.hpp>

#include <cstdint>
#include <memory>

namespace solvent {

// Initialises MPI on first use where the process was started by mpirun.
const Communicator& world();
// MPI_Finalize, at the end of main (after it, world() must not be used); where an operation
// between the ranks was left unfinished, MPI_Abort with `code` (the process's exit code).
void finish_world(int code = 1);
// Ends every rank of `comm` with `code` where it has several (MPI_Abort on it; Open MPI
// ends the whole job); returns where it has one.
void abort_ranks(const Communicator& comm, int code);
bool built_with_mpi();
// The ranks of an MPI communicator that a program embedding Solvent started MPI for and
// chose (mpi4py's Comm.py2f() gives `fortran_handle`, MPI_Comm_c2f's value): a run or a
// solve on a part of its world. The core neither starts nor ends MPI for it. ConfigError
// where MPI is not running, the handle is MPI_COMM_NULL, or Solvent was built without MPI.
std::shared_ptr<const Communicator> communicator_of(std::int64_t fortran_handle);

}  // namespace solvent

#include <solvent/errors.hpp>

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace solvent {

// What a rank that is not rank 0 throws when the ranks agreed that the run cannot start:
// rank 0 reports the problem once; this rank ends with the same exit code, silently.
class OtherRankFailed : public Error {
 public:
  explicit OtherRankFailed(int code) : Error("reported by rank 0"), code_(code) {}
  int exit_code() const override { return code_; }

 private:
  int code_;
};

// An operation between ranks that failed in MPI or outlasted SOLVENT_RANK_TIMEOUT: the ranks
// no longer agree on what comes next, so the run ends on every rank (abort, not finalize).
// The message names the operation (and the peer where there is one); the rank that met it
// is said by whoever reports it ("rank r: ...").
class RankWaitError : public Error {
 public:
  RankWaitError(int rank, const std::string& what) : Error(what), rank_(rank) {}
  int rank() const { return rank_; }

 private:
  int rank_;
};

// What a rank throws that waited in an operation which another rank, having failed, will
// never join: the failed rank announced itself (announce_failure), and the waiting rank,
// before it left the operation, took part in the exchange of statuses that the failed
// rank waits in (as agree_across_ranks would have), giving `stopped_status`. Carries
// every rank's status; its message and exit code are the lowest failed rank's.
inline const std::string stopped_status = "-1";
class PeerFailed : public Error {
 public:
  explicit PeerFailed(std::vector<std::string> statuses);
  int exit_code() const override { return code_; }
  const std::vector<std::string>& statuses() const { return statuses_; }

 private:
  std::vector<std::string> statuses_;
  int code_ = 1;
};

// The error of another rank, as rank 0 reports it: the other rank's exit code.
class RankError : public Error {
 public:
  RankError(int code, const std::string& what) : Error(what), code_(code) {}
  int exit_code() const override { return code_; }

 private:
  int code_;
};

// The exchanges of agree_across_ranks, apart from every other operation of `comm` (under
// MPI on a communicator of their own, so that the statuses of ranks that failed never
// match a collective the other ranks wait in). announce_failure tells every other rank,
// without waiting, that this one failed: their waits in any operation of `comm` then end
// with PeerFailed instead of waiting for it.
std::vector<std::string> gather_status(const Communicator& comm, const std::string& mine);
void announce_failure(const Communicator& comm);
// After the statuses were gathered and some rank failed: decides, the same on every rank
// from the statuses alone, whether the ranks end by MPI_Finalize (each takes the failure
// notices of the ranks in `announced`, the ones that called announce_failure) or all by
// abort (`unfinished`: some rank left an operation unfinished, and is not in the agreement).
void settle_failure(const Communicator& comm, std::span<const int> announced, bool unfinished);

// Runs `step` on every rank, then agrees: if it threw on any rank, rank 0 throws the lowest
// failing rank's error (its own as thrown; another's with "rank r:" before the message
// and the same exit code) and the other ranks throw OtherRankFailed. Where it succeeded
// everywhere, the strings it returned must be equal on all ranks (e.g. the hash of the
// resolved configuration), else rank 0 says which rank differs. One rank: `step` as is.
void agree_across_ranks(const Communicator& comm, const std::function<std::string()>& step);

// A failure while the ranks compute: this rank says what failed, and every rank ends with
// its exit code (MPI_Abort: the others may wait in a collective that will never complete).
// A failure every rank meets at once (an unconverged solve, whose residual all share) is
// said once: a rank other than 0 waits three seconds before speaking, and rank 0's abort
// ends it first where rank 0 failed too.
[[noreturn]] void end_all_ranks(const Communicator& comm, int code, const std::string& what);

}  // namespace solvent
