#pragma once
// Device memory of this rank that its neighbours on the same host write into directly:
// each rank allocates one buffer, publishes its CUDA IPC handle with the offsets of its parts
// over the communicator, and opens its neighbours' (NVLink or PCIe peer access). A plugin
// then copies or stores into a neighbour's part with no host staging and no MPI message:
// the Krylov halos copy faces into it, a sparse matrix's ghosts are copied into it
// (PeerGhosts), matm-cuda's sweeps store their boundary values into the slots the
// neighbour's sweep is waiting on. No CUDA type in the interface (target
// Solvent::cuda), so host code holds one without nvcc.
#include <solvent/communicator.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <span>

namespace solvent::cuda {

class PeerWindow {
 public:
  // Whether every rank of `comm` is on this host with access to every other rank's GPU, and
  // SOLVENT_CUDA_HALO is not "host" (which forces host staging, for comparison). With
  // distinct_devices, also that no two ranks share a GPU: a kernel spinning on a value that
  // another process's kernel on the same GPU has still to store only time-slices with it.
  // Collective; every rank gets the same answer.
  static bool available(const Communicator& comm, bool distinct_devices = false);
  // The same for this rank's GPU `device`, which need not be the calling thread's current
  // device yet: a plugin may ask before its device's context exists, since making the
  // context (making the device current does) is what takes the time.
  static bool available_on(const Communicator& comm, int device, bool distinct_devices);

  // Collective over `comm`: allocates `bytes` (zero-filled) on this rank's current device
  // and opens the window of each neighbour (a rank, or -1 for none: a grid's six faces in
  // GridBlocks::neighbours order, or a sparse matrix's peers). `offset` (7 entries, bytes,
  // or none: zeros) marks this window's parts, one per face; each neighbour learns them
  // (remote_offset).
  PeerWindow(const Communicator& comm, std::span<const int> neighbours,
             std::span<const std::size_t> offset, std::size_t bytes, const char* context);
  // Collective: waits until no neighbour can write here any more, then closes and frees.
  ~PeerWindow();
  PeerWindow(const PeerWindow&) = delete;
  PeerWindow& operator=(const PeerWindow&) = delete;

  std::byte* local() const;
  // The window of neighbour f (null where there is none) and the offsets that neighbour
  // published (its parts, then its size).
  std::byte* remote(int f) const;
  const std::array<std::size_t, 7>& remote_offset(int f) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::cuda
