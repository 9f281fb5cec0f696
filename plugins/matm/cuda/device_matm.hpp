#pragma once
// MATM's vector work on one GPU: the split operator resident in device memory from
// setup() on, the work vectors beside it, and the MatmBackend the shared iteration drives.
// No CUDA header here, so the solver's .cpp (which logs) can hold one.
//
// Over ranks (SplitStencil over a distributed Stencil7, one GPU per rank) the vectors are the
// block inside its ghost layer (unless one rank holds every node: then the block alone, as on
// one rank) and every kernel computes the own nodes only; what crosses
// to the neighbours is staged through page-locked host memory and MPI (RankLinks): the
// ghost layers of x, r and w before the products that read them, and the sweeps pipelined
// over the ranks by fragments of axis 1, each fragment's boundary strips copied from the
// device and sent after its launch, received and copied to the device before it. Inner
// products are each rank's device sum, added exactly over the ranks, so the iterates repeat
// one GPU's to rounding. The exchanges, fragments, messages and sums are the CPU backend's,
// in the same order, so a rank on the GPU and a neighbour on the CPU share a run. On one
// rank: one fragment, nothing staged.
//
// When every rank has a GPU of its own on one host and the GPUs map each other's memory
// (PeerWindow), nothing is staged: each rank sweeps its whole block in one launch, the
// launches of all ranks forming one wavefront, the boundary values stored straight into the
// neighbour's waiting slots (SweepPeers); the ghost layers go GPU to GPU (PeerHalo). The
// same nodes are computed from the same values as with staging: the iterates do not change.
#include "cuda/kernels.hpp"
#include "cuda/phase_clock.hpp"
#include "src/rank_links.hpp"

#include <solvent/device/device_array.hpp>
#include <solvent/device/peer_halo.hpp>
#include <solvent/device/peer_window.hpp>
#include <solvent_matm/iteration.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent::matm::cuda {

class DeviceMatm final : public MatmBackend {
 public:
  // fragments: the pieces of axis 1 a sweep is pipelined in over ranks (0: RankLinks'
  // default; ignored on one rank); pipelined: false for the "block" coupling (RankLinks),
  // in which every rank sweeps its block in one launch and nothing crosses in a sweep.
  // peer_to_peer (over ranks, pipelined): every rank has a GPU of its own on this host and
  // PeerWindow::available said so; the sweeps and ghost layers then go GPU to GPU, and the
  // grid may be split along axis 1 too.
  DeviceMatm(const SplitStencil& a, const SweepShape& shape, int fragments, bool pipelined,
             bool peer_to_peer);
  ~DeviceMatm() override;
  DeviceMatm(const DeviceMatm&) = delete;
  DeviceMatm& operator=(const DeviceMatm&) = delete;

  // Before iterate(): f and the initial guess (the block's values) to the device; after it,
  // the iterate back.
  void upload(std::span<const double> f, std::span<const double> x);
  void download(std::span<double> x) const;
  // Device time (CUDA events) from upload's end to download's start, in seconds.
  double device_seconds() const { return device_seconds_; }
  // The same time by phase of the iteration, up to the last sums fetched.
  const PhaseClock& phases() const { return clock_; }
  std::size_t device_bytes() const { return bytes_; }
  int fragments() const { return fragments_; }
  // Over ranks: the sweeps hand their planes GPU to GPU (true) or through the host.
  bool sweeps_peer_to_peer() const { return peers_.has_value(); }
  // The sweep shape in use (resolved: no zeros).
  const SweepShape& shape() const { return shape_; }

  bool self_adjoint() const override { return self_adjoint_; }
  double rhs_norm2() override;
  double update_and_residual(double tau) override;
  double omega_from_residual() override;
  Dots correction(double omega) override;
  void precondition(double omega) override;

 private:
  double* allocate(std::size_t n);
  void release();
  // `count` values of this rank, added over the ranks (exactly, as the CPU backend adds).
  std::vector<double> add_over_ranks(const double* values, int count) const;
  // Slots first .. first + count - 1 of the device sums, added over the ranks.
  std::vector<double> fetch_sums(int first, int count);
  // The range of fragment q (0 first) of a sweep, in the order the sweep takes them
  // (RankLinks::fragment; the whole line on one rank).
  SweepRange fragment(int q, bool upper) const;
  void open_peer_slots(const GridBlock& block);
  // y = (D + w R1)^-1 src, with (D y, y) into *dot where dot != nullptr; w = (D + w R2)^-1 D y.
  // of_product: src is w and the sweep's source A0 w (lower_sweep_of_product), and dot[0..4]
  // receives (D w, w), (D^-1 R2 w, R2 w), (A0 w, w), (r, w), (D y, y).
  void lower_sweep(const double* src, double omega, double* dot, bool of_product = false);
  void upper_sweep(double omega);
  // Over ranks: the ghost layer of a device field, and a fragment's strips in and out.
  void exchange(double* field);
  void receive_strips(double* field, const SweepRange& r, bool forward);
  void send_strips(const double* field, const SweepRange& r, bool forward);

  SplitView view_;  // device pointers
  Box own_;
  SweepShape shape_;
  bool self_adjoint_;
  std::size_t n_;
  std::size_t bytes_ = 0;
  std::vector<solvent::cuda::DeviceArray<double>> owned_;  // what the pointers below point into
  solvent::cuda::DeviceArray<int> ticket_counter_;
  double *x_[2] = {nullptr, nullptr}, *f_ = nullptr, *r_ = nullptr, *w_ = nullptr, *y_ = nullptr,
         *z0_ = nullptr, *z1_ = nullptr, *partials_ = nullptr, *sums_ = nullptr;
  int* tickets_ = nullptr;     // deals a sweep launch's tiles out
  double* handoff_ = nullptr;  // the sweeps' hand-off slots
  std::size_t handoff_slots_ = 0;
  int current_ = 0;  // x_[current_] is the iterate
  double f_norm2_ = 0.0;
  void* start_ = nullptr;  // cudaEvent_t
  void* stop_ = nullptr;
  mutable double device_seconds_ = 0.0;
  PhaseClock clock_;
  // Over ranks: the sums' ranks, and the links to the neighbours where the view has a ghost
  // layer (not where this or another rank holds the whole grid).
  const Communicator* ranks_ = nullptr;
  std::optional<RankLinks> links_;
  // Whether the block has a neighbour: a rank given no block, beside ranks that hold nodes,
  // has none; it exchanges nothing and steps x inside the residual, as one rank does.
  bool exchanges_ = false;
  int fragments_ = 1;
  // Page-locked staging, laid out as the halo's send and receive buffers; a fragment's strip
  // of face f uses the start of face f's part.
  solvent::cuda::PinnedArray<double> staged_send_, staged_receive_;
  // GPU to GPU sweeps: the slots the neighbours store into (parts per face, as the halo's),
  // and where each sweep direction reads and writes them.
  std::optional<solvent::cuda::PeerWindow> peers_;
  std::optional<solvent::cuda::PeerHalo> peer_halo_;  // the ghost layers, GPU to GPU
  std::size_t peer_slots_ = 0;
  SweepPeers lower_peers_[2], upper_peers_;
  int lower_set_ = 0;  // the set of slots the next lower sweep takes
  // GPU to GPU: whether the ghost layers of the iterate and of w hold the neighbours' values
  // (update_and_residual steps x's ghosts itself and exchanges only what is stale).
  bool x_ghosts_ = false, w_ghosts_ = false;
};

}  // namespace solvent::matm::cuda
