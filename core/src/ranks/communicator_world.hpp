#pragma once
// The run's communicator, for the core: MPI_COMM_WORLD when started by mpirun, else one rank.
#include <solvent/communicator.hpp>

namespace solvent {

// Initialises MPI on first use where the process was started by mpirun.
const Communicator& world();
// MPI_Finalize, at the end of main (after it, world() must not be used).
void finish_world();
// Ends every rank of a run of several with `code` (MPI_Abort); returns in a run of one.
void abort_world(int code);
bool built_with_mpi();

}  // namespace solvent

#include <solvent/errors.hpp>

#include <functional>
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

// The error of another rank, as rank 0 reports it: the other rank's exit code.
class RankError : public Error {
 public:
  RankError(int code, const std::string& what) : Error(what), code_(code) {}
  int exit_code() const override { return code_; }

 private:
  int code_;
};

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
