#pragma once
// The faces of a distributed stencil's block moved GPU to GPU between the ranks of one host
// (target Solvent::cuda; the Krylov device space and matm-cuda use it): each rank's receive
// buffer is a PeerWindow its neighbours open once, and an exchange then copies the faces
// straight into the neighbours' buffers (NVLink or PCIe peer copies) instead of staging them
// through host memory and MPI — on two H200s linked by NVLink a peer copy moves 364 GB/s at 64 MiB,
// host-staged MPI there about 6 GB/s (docs/scaling.md). The receive buffer is doubled: a product
// writes the half of its parity, so a neighbour still reading the other half from the product
// before is never overwritten; a zero-byte exchange with each neighbour after the copies
// says "your faces are there".
#include <solvent/grid/grid_blocks.hpp>

#include <array>
#include <cstddef>
#include <memory>

namespace solvent::cuda {

class PeerHalo {
 public:
  // Whether peer copies serve `block`: every rank of its communicator on this host, each
  // able to reach its neighbours' GPUs, and SOLVENT_CUDA_HALO not "host" (which forces the
  // host-staged path, for comparison). Collective; every rank gets the same answer.
  static bool available(const GridBlock& block);

  // Collective. `face_offset` (7 entries) are this rank's packed-face offsets, in elements of
  // `element_bytes` bytes (HaloExchange::face_offset).
  PeerHalo(const GridBlock& block, const std::array<std::size_t, 7>& face_offset,
           std::size_t element_bytes);
  ~PeerHalo();
  PeerHalo(const PeerHalo&) = delete;
  PeerHalo& operator=(const PeerHalo&) = delete;

  // Queues the copy of face f of `packed` (this rank's faces, on its device) into the
  // receive buffer of the neighbour across f, on the default stream; the block's own product
  // may be queued after it and run meanwhile.
  void send(const void* packed);
  // The same for faces that are not packed in one buffer: the caller queues its copy of
  // face f (face_offset(f + 1) - face_offset(f) elements) to destination(f) on the default
  // stream for every face with a neighbour (null: none), then calls sent().
  void* destination(int f) const;
  void sent();
  // Waits for this rank's copies and for every neighbour's, and returns this rank's received
  // faces (device memory, the packed layout), valid until the next send's receive.
  const void* receive();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::cuda
