// The world communicator of a run: MPI_COMM_WORLD when the process was started by mpirun,
// else the SDK's one rank.
#include "ranks/communicator_world.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#ifdef SOLVENT_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif
#endif

namespace solvent {

namespace {

#ifdef SOLVENT_HAVE_MPI
// Set once an MPI call failed or a wait ran out of time: the ranks no longer agree on which
// collective comes next, so MPI_Finalize (itself collective) could wait forever.
bool world_broken = false;
// Set where this rank told the others it failed (announce_failure) and they have not yet
// taken the notices: MPI_Finalize would wait for them to be received.
bool notices_outstanding = false;

void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  world_broken = true;
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(code, text, &n);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  throw RankWaitError(rank, fmt::format("MPI: {} failed: {}", what,
                                        std::string(text, static_cast<std::size_t>(n))));
}

// How long one rank waits for the others in one operation before it ends the run: a rank
// stuck in a kernel, a lost message or ranks in different collectives would otherwise hold
// every rank forever. Generous by default, since a wait includes the other ranks' work
// between two operations (rank 0 writing the output while the others wait, say).
// A value that is not a positive number ends every rank with exit code 2 (rank 0 says why).
std::chrono::duration<double> wait_limit(int rank) {
  const char* v = std::getenv("SOLVENT_RANK_TIMEOUT");
  if (!v) return std::chrono::seconds(300);
  char* end = nullptr;
  const double seconds = std::strtod(v, &end);
  if (end != v && *end == '\0' && seconds > 0.0 && std::isfinite(seconds))
    return std::chrono::duration<double>(seconds);
  if (rank == 0)
    std::fprintf(stderr,
                 "error: SOLVENT_RANK_TIMEOUT = '%s': expected the seconds a rank may wait for "
                 "the others, a number above 0\n", v);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::_Exit(2);
}

// The ranks of one MPI communicator: the world's, or one that a program embedding Solvent
// gives (a part of its world, from mpi4py). Operations run on a duplicate of it, so that
// none of them ever matches a message of the program's own.
class MpiRanks final : public Communicator {
 public:
  // What an operation needs of other ranks: its place in the sequence of the world's
  // collectives, or of the messages on one channel with one peer (counted from 1 as it
  // starts). A failed rank's notice carries its own counts; the operation can still complete
  // where the failed rank reached its part of it.
  enum class Channel : std::size_t { send_halo, send, receive_halo, receive };
  static constexpr std::size_t channels = 4;
  struct Need {
    int peer;  // -1: a collective
    Channel channel;
    long long index;
  };
  using Needs = std::span<const Need>;

  // `owns_mpi`: this object started MPI (the world, where no one had) and ends it.
  MpiRanks(MPI_Comm given, bool owns_mpi) : owns_mpi_(owns_mpi) {
    check(MPI_Comm_dup(given, &comm_), "MPI_Comm_dup");
    // Errors are returned, not fatal, so that they become a solvent::Error with a message.
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    limit_ = wait_limit(rank_);
    MPI_Comm node;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_free(&node);
    check(MPI_Comm_dup(comm_, &status_), "MPI_Comm_dup");
    counts_.resize(static_cast<std::size_t>(size_));
    sent_notices_.resize(counts_.size());
    notices_.resize(counts_.size());
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    // Built with CUDA support is not enough: the library loaded at run time must say so.
    device_memory_ = MPIX_Query_cuda_support() == 1;
#endif
  }
  ~MpiRanks() override {
    // After the embedding program ended MPI (mpi4py at the interpreter's exit) nothing may
    // be freed; MPI freed it.
    int ended = 0;
    MPI_Finalized(&ended);
    if (ended != 0) return;
    MPI_Comm_free(&status_);
    MPI_Comm_free(&comm_);
    if (owns_mpi_) MPI_Finalize();
  }
  MpiRanks(const MpiRanks&) = delete;
  MpiRanks& operator=(const MpiRanks&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  bool owns_mpi() const { return owns_mpi_; }
  bool device_memory() const override { return device_memory_; }
  void barrier() const override {
    MPI_Request r;
    check(MPI_Ibarrier(comm_, &r), "MPI_Ibarrier");
    wait({&r, 1}, "MPI_Barrier", -1, collective());
  }

  void sum(std::span<double> values) const override {
    const auto all = gathered(values);
    for (std::size_t i = 0; i < values.size(); ++i) {
      double s = 0.0;
      for (int r = 0; r < size_; ++r) s += all[static_cast<std::size_t>(r) * values.size() + i];
      values[i] = s;
    }
  }
  void max(std::span<double> values) const override {
    MPI_Request r;
    check(MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                         MPI_MAX, comm_, &r),
          "MPI_Allreduce");
    wait({&r, 1}, "MPI_Allreduce (maximum over ranks)", -1, collective());
  }
  void broadcast(std::string& bytes, int root) const override {
    unsigned long long n = bytes.size();
    MPI_Request r;
    check(MPI_Ibcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, comm_, &r), "MPI_Bcast");
    wait({&r, 1}, "MPI_Bcast", root, collective());
    bytes.resize(n);
    check(MPI_Ibcast(bytes.data(), static_cast<int>(n), MPI_CHAR, root, comm_, &r),
          "MPI_Bcast");
    wait({&r, 1}, "MPI_Bcast", root, collective());
  }
  std::vector<std::string> gather_all(const std::string& mine) const override {
    return gather_on(comm_, mine);
  }
  // The ranks' statuses, on a communicator of their own: a rank whose step failed gathers
  // here while the others may still wait in an operation of the world's, which this gather
  // must never complete in their place.
  std::vector<std::string> gather_status(const std::string& mine) const {
    return gather_on(status_, mine);
  }
  // Tells every other rank that this one failed, without waiting for them (they may be in
  // an operation this rank will never join); their waits look for the message.
  // The notice to each peer carries this rank's counts of the operations it did its part of
  // (Notice: `unfinished`, an operation it abandons, is not among them), so that a peer still
  // finishing an operation this rank completed finishes it, and only a peer waiting for an
  // operation this rank never joined gives up.
  void announce_failure(Needs unfinished = {}) const {
    notices_outstanding = true;
    for (int peer = 0; peer < size_; ++peer) {
      if (peer == rank_) continue;
      auto& n = sent_notices_[static_cast<std::size_t>(peer)];  // outlives the send
      n[0] = collectives_;
      const auto& counts = counts_[static_cast<std::size_t>(peer)];
      std::copy(counts.begin(), counts.end(), n.begin() + 1);
      for (const Need& u : unfinished) {
        if (u.peer < 0) n[0] = u.index - 1;
        if (u.peer == peer) n[1 + static_cast<std::size_t>(u.channel)] = u.index - 1;
      }
      MPI_Request r;
      check(MPI_Isend(n.data(), int(n.size()), MPI_LONG_LONG, peer, failed_tag, status_, &r),
            "MPI_Isend");
      MPI_Request_free(&r);
    }
  }
  void exchange(int peer, std::span<const std::byte> send,
                std::span<std::byte> receive) const override {
    MPI_Request r[2];
    check(MPI_Irecv(receive.data(), static_cast<int>(receive.size()), MPI_BYTE, peer, 0,
                    comm_, &r[0]),
          "MPI_Irecv");
    check(MPI_Isend(send.data(), static_cast<int>(send.size()), MPI_BYTE, peer, 0, comm_,
                    &r[1]),
          "MPI_Isend");
    const Need needs[2] = {need(peer, Channel::receive_halo), need(peer, Channel::send_halo)};
    wait(r, "MPI_Sendrecv (halo exchange)", peer, needs);
  }
  void exchange(std::span<const Transfer> transfers) const override {
    std::vector<MPI_Request> r(2 * transfers.size());
    std::vector<Need> needs;
    for (std::size_t k = 0; k < transfers.size(); ++k) {
      const auto& t = transfers[k];
      needs.push_back(need(t.peer, Channel::receive_halo));
      needs.push_back(need(t.peer, Channel::send_halo));
      check(MPI_Irecv(t.receive.data(), static_cast<int>(t.receive.size()), MPI_BYTE, t.peer, 0,
                      comm_, &r[2 * k]),
            "MPI_Irecv");
      check(MPI_Isend(t.send.data(), static_cast<int>(t.send.size()), MPI_BYTE, t.peer, 0,
                      comm_, &r[2 * k + 1]),
            "MPI_Isend");
    }
    wait(r, "MPI_Sendrecv (ghost exchange)", transfers.size() == 1 ? transfers[0].peer : -1,
         needs);
  }
  // Tag 1, apart from exchange()'s 0, so that a one-way message never matches a halo.
  void send(int peer, std::span<const std::byte> bytes) const override {
    MPI_Request r;
    check(MPI_Isend(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, peer, 1,
                    comm_, &r),
          "MPI_Send");
    const Need needs[1] = {need(peer, Channel::send)};
    wait({&r, 1}, "MPI_Send", peer, needs);
  }
  void receive(int peer, std::span<std::byte> bytes) const override {
    MPI_Request r;
    check(MPI_Irecv(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, peer, 1,
                    comm_, &r),
          "MPI_Recv");
    const Need needs[1] = {need(peer, Channel::receive)};
    wait({&r, 1}, "MPI_Recv", peer, needs);
  }
  // Once every rank's status is known (agree_across_ranks), the same on every rank that
  // took part: where a rank left an operation unfinished (`unfinished`: its status is
  // stopped_status; it may not even be in the agreement), every rank is marked broken and
  // all end by abort, rank 0 first. Otherwise each rank takes the notices the failed ranks
  // (`announced`) sent it, so no message is left unreceived and every rank finalizes as
  // usual, exiting with the failure's code. Never some ranks finalizing while others abort:
  // Open MPI's launcher can crash on that (a segmentation fault in PMIx_server_finalize,
  // exit 139 for the job).
  void settle_failure(std::span<const int> announced, bool unfinished) const {
    if (unfinished) {
      world_broken = true;
      return;
    }
    for (const int peer : announced) {
      auto& notice = notices_[static_cast<std::size_t>(peer)];
      if (peer == rank_ || notice) continue;  // taken already by a wait
      notice.emplace();
      MPI_Request r;
      check(MPI_Irecv(notice->data(), int(notice->size()), MPI_LONG_LONG, peer, failed_tag,
                      status_, &r),
            "MPI_Irecv");
      wait({&r, 1}, "MPI_Recv (failure notice)", peer, Needs{}, false);
    }
    notices_outstanding = false;
    // Settled: the notices spoke of the operations in flight at the failure, which every
    // rank has finished; the ranks' counts agree again, and later operations (the barrier
    // before MPI_Finalize) must not be taken for abandoned ones.
    for (auto& notice : notices_) notice.reset();
  }
  [[noreturn]] void abort(int code) const { MPI_Abort(comm_, code); std::_Exit(code); }

 private:
  static constexpr int failed_tag = 7;

  std::vector<std::string> gather_on(MPI_Comm comm, const std::string& mine) const {
    const bool statuses = comm == status_;
    int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_)), offsets(sizes.size());
    MPI_Request r;
    check(MPI_Iallgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm, &r), "MPI_Allgather");
    // The statuses' gather is no operation of the world's: it waits for every rank.
    const Need op = statuses ? Need{-1, Channel::send, 0} : collective();
    wait({&r, 1}, "MPI_Allgather", -1, op, !statuses);
    int total = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      offsets[k] = total;
      total += sizes[k];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    check(MPI_Iallgatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(),
                          MPI_CHAR, comm, &r),
          "MPI_Allgatherv");
    const Need second = statuses ? op : collective();
    wait({&r, 1}, "MPI_Allgatherv", -1, second, !statuses);
    std::vector<std::string> out;
    for (std::size_t k = 0; k < sizes.size(); ++k)
      out.push_back(all.substr(static_cast<std::size_t>(offsets[k]), static_cast<std::size_t>(sizes[k])));
    return out;
  }

  std::vector<double> gathered(std::span<const double> values) const {
    std::vector<double> all(values.size() * static_cast<std::size_t>(size_));
    MPI_Request r;
    check(MPI_Iallgather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all.data(),
                         static_cast<int>(values.size()), MPI_DOUBLE, comm_, &r),
          "MPI_Allgather");
    wait({&r, 1}, "MPI_Allgather (sum over ranks)", -1, collective());
    return all;
  }
  Need collective() const { return {-1, Channel::send, ++collectives_}; }
  Need need(int peer, Channel c) const {
    return {peer, c, ++counts_[static_cast<std::size_t>(peer)][static_cast<std::size_t>(c)]};
  }
  // Takes the failure notices that have arrived; whether one says its rank will never do
  // its part of the operation that `needs` describes (a message of this rank's on a channel
  // is matched by the peer's on the opposite one).
  bool abandoned(Needs needs) const {
    for (;;) {
      int arrived = 0;
      MPI_Status st;
      check(MPI_Iprobe(MPI_ANY_SOURCE, failed_tag, status_, &arrived, &st), "MPI_Iprobe");
      if (!arrived) break;
      auto& notice = notices_[static_cast<std::size_t>(st.MPI_SOURCE)].emplace();
      check(MPI_Recv(notice.data(), int(notice.size()), MPI_LONG_LONG, st.MPI_SOURCE, failed_tag,
                     status_, MPI_STATUS_IGNORE),
            "MPI_Recv (failure notice)");
    }
    return std::any_of(needs.begin(), needs.end(), [&](const Need& n) {
      for (std::size_t f = 0; f < notices_.size(); ++f) {
        const auto& notice = notices_[f];
        if (!notice) continue;
        if (n.peer < 0 && n.index > (*notice)[0]) return true;
        const std::size_t opposite = (static_cast<std::size_t>(n.channel) + 2) % channels;
        if (std::size_t(n.peer) == f && n.index > (*notice)[1 + opposite]) return true;
      }
      return false;
    });
  }
  // Every operation is started non-blocking and waited for here, so that no wait outlasts
  // limit_, and none outlasts a rank that announced its failure before doing its part (the
  // statuses' own gather waits for every rank, the failed one included).
  void wait(std::span<MPI_Request> requests, const char* operation, int peer, const Need& one,
            bool watch_failures = true) const {
    wait(requests, operation, peer, Needs(&one, 1), watch_failures);
  }
  void wait(std::span<MPI_Request> requests, const char* operation, int peer, Needs needs,
            bool watch_failures = true) const {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      int done = 0;
      check(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                        MPI_STATUSES_IGNORE),
            operation);
      if (done) return;
      if (watch_failures) {
        if (abandoned(needs)) {
          // The operation stays unfinished: MPI may still write into its buffers, which
          // live until this wait returns, so the statuses are exchanged before it does, and
          // the process ends without finalizing. A rank that waits for this one in another
          // operation (a message from it) must learn of it as of a failure, or it would wait
          // on while this rank waits for it in the statuses' exchange.
          world_broken = true;
          announce_failure(needs);
          throw PeerFailed(gather_on(status_, stopped_status));
        }
      }
      const auto waited = std::chrono::steady_clock::now() - start;
      if (waited > limit_) {
        world_broken = true;
        throw RankWaitError(rank_, fmt::format(
            "{}{} did not complete within {:g} s: a rank is stuck, or the ranks are in "
            "different operations (SOLVENT_RANK_TIMEOUT sets the limit)",
            operation, peer >= 0 ? fmt::format(" with rank {}", peer) : std::string(),
            limit_.count()));
      }
      // Yielding costs well under a microsecond where the rank has its core to itself, and
      // gives an oversubscribed core (more ranks than cores) to the rank with work to do.
      std::this_thread::yield();
    }
  }
  std::chrono::duration<double> limit_{};
  // This rank's operations so far (Need), and the failure notices sent and taken: the
  // counts at the failure, collectives first, then each channel with the peer it goes to.
  using Notice = std::array<long long, 1 + channels>;
  mutable long long collectives_ = 0;
  mutable std::vector<std::array<long long, channels>> counts_;
  mutable std::vector<Notice> sent_notices_;
  mutable std::vector<std::optional<Notice>> notices_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Comm status_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, local_rank_ = 0;
  bool device_memory_ = false;
  bool owns_mpi_ = false;
};

// Started by mpirun (OpenMPI, or any PMI/PMIx launcher)? A process started alone does not
// initialise MPI at all: a singleton MPI_Init costs about a second, on every command.
bool launched_by_mpirun_environment() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

// Read when the core library is loaded, before any plugin runs: a plugin library that starts
// MPI itself (PETSc, without mpirun) makes OpenMPI a singleton that sets these variables in
// the process, which must not make the core start MPI a second time.
const bool launched_at_start = launched_by_mpirun_environment();

bool launched_by_mpirun() { return launched_at_start; }

// MPI started over several processes by the program that embeds Solvent (mpi4py under any
// launcher): its world is the run's, whatever the environment says. One process of MPI
// started by a plugin library (PETSc's singleton) is not a reason to use it.
bool started_by_embedding_program() {
  int started = 0, ended = 0, size = 1;
  MPI_Initialized(&started);
  MPI_Finalized(&ended);
  if (started == 0 || ended != 0) return false;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size > 1;
}

// The world's ranks. A program that embeds Solvent (Python with mpi4py) may have started
// MPI already: the core then uses it and leaves ending it to that program.
std::unique_ptr<MpiRanks> make_world() {
  int started = 0;
  MPI_Initialized(&started);
  if (started == 0) {
    int provided = 0;
    // FUNNELED: OpenMP threads compute, only the main thread calls MPI.
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  }
  return std::make_unique<MpiRanks>(MPI_COMM_WORLD, started == 0);
}

// The world's ranks once made (null before, and where the process is one rank): made on
// first use only, since making them is collective over the world (MPI_Comm_dup). A program
// that embeds Solvent and runs it on a part of its world (rank 0 alone, say) never makes
// them, and must not at its exit either, where the other ranks would never join.
std::unique_ptr<MpiRanks>& world_ranks() {
  static std::unique_ptr<MpiRanks> ranks;
  return ranks;
}

std::unique_ptr<MpiRanks>& mpi_world() {
  // Once, also where threads of an embedding program start runs at the same time.
  static std::once_flag once;
  std::call_once(once, [] {
    if (launched_by_mpirun() || started_by_embedding_program()) world_ranks() = make_world();
  });
  return world_ranks();
}

const MpiRanks* mpi_ranks_of(const Communicator& comm) {
  return dynamic_cast<const MpiRanks*>(&comm);
}
#endif

}  // namespace

const Communicator& world() {
#ifdef SOLVENT_HAVE_MPI
  if (const auto& w = mpi_world()) return *w;
#endif
  return single_rank();
}

void finish_world(int code) {
#ifdef SOLVENT_HAVE_MPI
  // After a failed, timed-out or abandoned operation the other ranks may never reach
  // MPI_Finalize. Rank 0, which speaks for the run, aborts first: Open MPI's launcher can
  // crash on the messages of several ranks that abort at once.
  auto& w = world_ranks();
  // The ranks leave together: Open MPI's launcher ends the whole job as soon as one process
  // exits with a failure's code, finalized or not, so a rank that left first could cut rank 0
  // off before it had reported and recorded the failure the ranks agreed on. (Rank 0, where
  // it ends the run by abort instead, ends the waiting ranks with it.) Only where Solvent
  // started MPI: a program that embeds it (mpi4py) ends its ranks when it chooses, and one
  // of them may still be working long after another has left.
  if (!world_broken && !notices_outstanding && w && w->size() > 1 && w->owns_mpi()) {
    try {
      w->barrier();
    } catch (const Error&) {
      world_broken = true;  // a rank that never came: the others may never finalize either
    }
  }
  if ((world_broken || notices_outstanding) && w && w->size() > 1) {
    if (w->rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(3));
    w->abort(code);
  }
  w.reset();
#endif
  (void)code;
}

std::vector<std::string> gather_status(const Communicator& comm, const std::string& mine) {
#ifdef SOLVENT_HAVE_MPI
  if (const auto* m = mpi_ranks_of(comm)) return m->gather_status(mine);
#endif
  return comm.gather_all(mine);
}

void announce_failure(const Communicator& comm) {
#ifdef SOLVENT_HAVE_MPI
  if (const auto* m = mpi_ranks_of(comm)) m->announce_failure();
#endif
  (void)comm;
}

void settle_failure(const Communicator& comm, std::span<const int> announced, bool unfinished) {
#ifdef SOLVENT_HAVE_MPI
  if (const auto* m = mpi_ranks_of(comm)) m->settle_failure(announced, unfinished);
#endif
  (void)comm;
  (void)announced;
  (void)unfinished;
}

void abort_ranks(const Communicator& comm, int code) {
#ifdef SOLVENT_HAVE_MPI
  if (const auto* m = mpi_ranks_of(comm); m && m->size() > 1) m->abort(code);
#endif
  (void)comm;
  (void)code;
}

std::shared_ptr<const Communicator> communicator_of(std::int64_t fortran_handle) {
#ifdef SOLVENT_HAVE_MPI
  int started = 0, ended = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&ended);
  if (started == 0 || ended != 0)
    throw ConfigError({"comm: MPI is not running (start it first, e.g. with `from mpi4py "
                       "import MPI`)"});
  const MPI_Comm given = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_handle));
  if (given == MPI_COMM_NULL)
    throw ConfigError({"comm: MPI_COMM_NULL (a rank that Split left out of every part) has "
                       "no ranks to run on"});
  return std::make_shared<MpiRanks>(given, false);
#else
  (void)fortran_handle;
  throw ConfigError({"comm: this Solvent was built without MPI (libopenmpi-dev), so it runs "
                     "on one rank only; pass no communicator"});
#endif
}

bool built_with_mpi() {
#ifdef SOLVENT_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace solvent
