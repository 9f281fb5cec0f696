#pragma once
// The ghosts of a sparse matrix distributed by rows (sparse/row_distribution.hpp) moved GPU
// to GPU between the ranks of one host (target Solvent::cuda; the Krylov device space uses
// it): each rank's ghost buffer is a PeerWindow its peers open once, and an exchange copies
// the values each peer needs straight into the run of that peer's ghosts, instead of staging
// them through page-locked host memory and MPI (GhostExchange). The same doubled buffer and
// zero-byte "your values are there" messages as the grid's PeerHalo: a product fills the
// half of its parity, so a peer still reading the other half is never overwritten.
#include <solvent/sparse/row_distribution.hpp>

#include <cstddef>
#include <memory>

namespace solvent::cuda {

class PeerGhosts {
 public:
  // Whether peer copies serve the ranks of `d` (PeerWindow::available). Collective; every
  // rank gets the same answer.
  static bool available(const RowDistribution& d);

  // Collective over d's ranks: opens the peers' ghost buffers and learns where in each this
  // rank's values go. Elements are `element_bytes` bytes.
  PeerGhosts(const RowDistribution& d, std::size_t element_bytes);
  ~PeerGhosts();
  PeerGhosts(const PeerGhosts&) = delete;
  PeerGhosts& operator=(const PeerGhosts&) = delete;

  // Queues, on the default stream, the copy of each peer's run of `packed` (this rank's
  // values for its peers on its device, in peer order, as GhostExchange packs them) into
  // that peer's ghosts.
  void send(const void* packed);
  // Waits for this rank's copies and for every peer's, and returns this rank's ghosts
  // (device memory, in ghost order), valid until the next send's receive.
  const void* receive();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::cuda
