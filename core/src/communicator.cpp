#include "communicator_world.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#ifdef SOLVENT_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif
#endif

namespace solvent {

namespace {

class SingleRank final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  void barrier() const override {}
  void sum(std::span<double>) const override {}
  void max(std::span<double>) const override {}
  void broadcast(std::string&, int) const override {}
  std::vector<std::string> gather_all(const std::string& mine) const override { return {mine}; }
  void exchange(int peer, std::span<const std::byte> send,
                std::span<std::byte> receive) const override {
    // The one rank is its own neighbour on a periodic axis.
    if (peer != 0 || send.size() != receive.size())
      throw Error(fmt::format("exchange with rank {} in a run of one rank", peer));
    std::memcpy(receive.data(), send.data(), send.size());
  }
  void send(int peer, std::span<const std::byte>) const override {
    throw Error(fmt::format("send to rank {} in a run of one rank", peer));
  }
  void receive(int peer, std::span<std::byte>) const override {
    throw Error(fmt::format("receive from rank {} in a run of one rank", peer));
  }
};

#ifdef SOLVENT_HAVE_MPI
void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int n = 0;
  MPI_Error_string(code, text, &n);
  throw Error(fmt::format("MPI: {} failed: {}", what, std::string(text, static_cast<std::size_t>(n))));
}

class MpiWorld final : public Communicator {
 public:
  MpiWorld() {
    int provided = 0;
    // FUNNELED: OpenMP threads compute, only the main thread calls MPI.
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    // Errors are returned, not fatal, so that they become a solvent::Error with a message.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
          "MPI_Comm_split_type");
    MPI_Comm_rank(node, &local_rank_);
    MPI_Comm_free(&node);
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    // Built with CUDA support is not enough: the library loaded at run time must say so.
    device_memory_ = MPIX_Query_cuda_support() == 1;
#endif
  }
  ~MpiWorld() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  bool device_memory() const override { return device_memory_; }
  void barrier() const override { check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier"); }

  void sum(std::span<double> values) const override {
    const auto all = gathered(values);
    for (std::size_t i = 0; i < values.size(); ++i) {
      double s = 0.0;
      for (int r = 0; r < size_; ++r) s += all[static_cast<std::size_t>(r) * values.size() + i];
      values[i] = s;
    }
  }
  void max(std::span<double> values) const override {
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE,
                        MPI_MAX, MPI_COMM_WORLD),
          "MPI_Allreduce");
  }
  void broadcast(std::string& bytes, int root) const override {
    unsigned long long n = bytes.size();
    check(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD), "MPI_Bcast");
    bytes.resize(n);
    check(MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_CHAR, root, MPI_COMM_WORLD), "MPI_Bcast");
  }
  std::vector<std::string> gather_all(const std::string& mine) const override {
    int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_)), offsets(sizes.size());
    check(MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
    int total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = total;
      total += sizes[r];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    check(MPI_Allgatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), offsets.data(),
                         MPI_CHAR, MPI_COMM_WORLD),
          "MPI_Allgatherv");
    std::vector<std::string> out;
    for (std::size_t r = 0; r < sizes.size(); ++r)
      out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(sizes[r])));
    return out;
  }
  void exchange(int peer, std::span<const std::byte> send,
                std::span<std::byte> receive) const override {
    check(MPI_Sendrecv(send.data(), static_cast<int>(send.size()), MPI_BYTE, peer, 0,
                       receive.data(), static_cast<int>(receive.size()), MPI_BYTE, peer, 0,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
  }
  // Tag 1, apart from exchange()'s 0, so that a one-way message never matches a halo.
  void send(int peer, std::span<const std::byte> bytes) const override {
    check(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD),
          "MPI_Send");
  }
  void receive(int peer, std::span<std::byte> bytes) const override {
    check(MPI_Recv(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE),
          "MPI_Recv");
  }
  [[noreturn]] void abort(int code) const { MPI_Abort(MPI_COMM_WORLD, code); std::_Exit(code); }

 private:
  std::vector<double> gathered(std::span<const double> values) const {
    std::vector<double> all(values.size() * static_cast<std::size_t>(size_));
    check(MPI_Allgather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all.data(),
                        static_cast<int>(values.size()), MPI_DOUBLE, MPI_COMM_WORLD),
          "MPI_Allgather");
    return all;
  }
  int rank_ = 0, size_ = 1, local_rank_ = 0;
  bool device_memory_ = false;
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

std::unique_ptr<MpiWorld>& mpi_world() {
  static std::unique_ptr<MpiWorld> world =
      launched_by_mpirun() ? std::make_unique<MpiWorld>() : nullptr;
  return world;
}
#endif

}  // namespace

const Communicator& single_rank() {
  static const SingleRank one;
  return one;
}

const Communicator& world() {
#ifdef SOLVENT_HAVE_MPI
  if (const auto& w = mpi_world()) return *w;
#endif
  return single_rank();
}

void finish_world() {
#ifdef SOLVENT_HAVE_MPI
  mpi_world().reset();
#endif
}

void abort_world(int code) {
#ifdef SOLVENT_HAVE_MPI
  if (const auto& w = mpi_world(); w && w->size() > 1) w->abort(code);
#endif
  (void)code;
}

bool built_with_mpi() {
#ifdef SOLVENT_HAVE_MPI
  return true;
#else
  return false;
#endif
}

}  // namespace solvent
