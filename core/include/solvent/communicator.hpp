#pragma once
// The ranks of one run as a plugin sees them: which of the run's processes this is, and the
// few collective operations a distributed plugin needs — with no mpi.h in any plugin. The
// core implements it over MPI when the run was started by mpirun (and Solvent was built
// with MPI); otherwise the run is one rank and every collective is the identity.
#include <complex>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace solvent {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // The rank among this host's ranks: a rank drives GPU local_rank() % (GPUs on the host).
  virtual int local_rank() const = 0;
  virtual void barrier() const = 0;
  // Element-wise over all ranks, in place. The sum is formed in rank order on every rank
  // (gathered, then added 0, 1, 2, ...), so every rank holds the same bits and a rerun on
  // as many ranks repeats them, which MPI_Allreduce does not promise.
  virtual void sum(std::span<double> values) const = 0;
  virtual void max(std::span<double> values) const = 0;
  // `root`'s bytes, on every rank.
  virtual void broadcast(std::string& bytes, int root) const = 0;
  // Every rank's string, in rank order, on every rank.
  virtual std::vector<std::string> gather_all(const std::string& mine) const = 0;
  // Sends `send` to `peer` and receives `receive.size()` bytes from it, both at once, so
  // that two neighbours exchanging halos never wait on each other.
  virtual void exchange(int peer, std::span<const std::byte> send,
                        std::span<std::byte> receive) const = 0;
  // One way, for a pipeline (a triangular sweep over ranks): send() returns once `bytes` may
  // be reused, receive() once `bytes` holds the message `peer` sent. Messages between two
  // ranks arrive in the order they were sent.
  virtual void send(int peer, std::span<const std::byte> bytes) const = 0;
  virtual void receive(int peer, std::span<std::byte> bytes) const = 0;
  // exchange() with several peers at once, every message in flight together (a sparse
  // matrix's ghost exchange, whose neighbours no grid orders): transfers[k].send goes to
  // transfers[k].peer and transfers[k].receive is filled from it; returns when all are done.
  struct Transfer {
    int peer = 0;
    std::span<const std::byte> send;
    std::span<std::byte> receive;
  };
  virtual void exchange(std::span<const Transfer> transfers) const = 0;

  // Whether exchange() may be given device memory: a CUDA-aware MPI, asked when the run
  // starts (MPIX_Query_cuda_support). A device plugin stages through host memory otherwise.
  virtual bool device_memory() const { return false; }

  void sum(std::span<std::complex<double>> values) const {
    // std::complex<double> is two doubles, real then imaginary ([complex.numbers]).
    sum(std::span<double>(reinterpret_cast<double*>(values.data()), 2 * values.size()));
  }
};

// The communicator of a run of one process: rank 0 of 1.
const Communicator& single_rank();

// Work that one rank does for all (reading a file, partitioning a graph): runs `step` on rank
// `root` alone and returns its bytes on every rank (a broadcast). Where `step` throws, `root`
// rethrows its exception and every other rank throws a solvent::Error of the same exit code
// and message (a ConfigError with the same problems, an InputError for exit code 4, ...), so
// that no rank waits for bytes that never come and every rank ends as `root` does. Every
// rank calls it together; `step` itself takes no part in operations between the ranks.
std::string from_root(const Communicator& comm, int root, const std::function<std::string()>& step);

}  // namespace solvent
