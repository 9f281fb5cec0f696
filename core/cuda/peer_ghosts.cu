#include <solvent/device/cuda.hpp>
#include <solvent/device/peer_ghosts.hpp>
#include <solvent/device/peer_window.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace solvent::cuda {

namespace {
constexpr const char* context = "GPU peer ghosts";
void check(cudaError_t status, const char* what) { cuda::check(status, context, what); }
}  // namespace

struct PeerGhosts::State {
  const Communicator* comm = nullptr;
  std::vector<int> peers;
  std::vector<std::size_t> send_first, send_bytes;  // this rank's runs of the packed values
  std::vector<std::size_t> remote_first;            // where they go in each peer's half
  std::vector<std::size_t> remote_half;             // each peer's half (bytes)
  std::size_t half = 0;                             // this rank's ghosts (bytes)
  std::optional<PeerWindow> window;
  std::vector<Communicator::Transfer> signals;  // a zero-byte message each peer, every product
  cudaEvent_t copied = nullptr;
  int parity = 0;
};

bool PeerGhosts::available(const RowDistribution& d) { return PeerWindow::available(*d.comm); }

PeerGhosts::PeerGhosts(const RowDistribution& d, std::size_t element_bytes)
    : state_(std::make_unique<State>()) {
  auto& s = *state_;
  s.comm = d.comm;
  s.half = d.ghosts.size() * element_bytes;
  std::size_t packed = 0;
  for (const auto& p : d.peers) {
    s.peers.push_back(p.rank);
    s.send_first.push_back(packed * element_bytes);
    s.send_bytes.push_back(p.send_rows.size() * element_bytes);
    packed += p.send_rows.size();
  }
  s.window.emplace(*s.comm, std::span<const int>(s.peers), std::span<const std::size_t>(),
                   2 * s.half, context);
  // Each peer tells this rank where its ghosts from this rank start and how large its half
  // is: one round of messages, two numbers each way.
  const std::size_t n = s.peers.size();
  std::vector<std::uint64_t> mine(2 * n), theirs(2 * n);
  std::vector<Communicator::Transfer> t(n);
  for (std::size_t k = 0; k < n; ++k) {
    mine[2 * k] = d.peers[k].ghost_first * element_bytes;
    mine[2 * k + 1] = s.half;
    t[k] = {s.peers[k], std::as_bytes(std::span<const std::uint64_t>(mine).subspan(2 * k, 2)),
            std::as_writable_bytes(std::span<std::uint64_t>(theirs).subspan(2 * k, 2))};
  }
  s.comm->exchange(std::span<const Communicator::Transfer>(t));
  for (std::size_t k = 0; k < n; ++k) {
    s.remote_first.push_back(theirs[2 * k]);
    s.remote_half.push_back(theirs[2 * k + 1]);
    s.signals.push_back({s.peers[k], {}, {}});
  }
  check(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming), "cudaEventCreate");
}

PeerGhosts::~PeerGhosts() {
  // The window waits until no peer copies into it any more.
  if (state_->copied) cudaEventDestroy(state_->copied);
}

void PeerGhosts::send(const void* packed) {
  auto& s = *state_;
  for (std::size_t k = 0; k < s.peers.size(); ++k) {
    if (s.send_bytes[k] == 0) continue;
    // Into the peer's half of this parity: the halves of the ranks differ in size.
    std::byte* to = s.window->remote(static_cast<int>(k)) + s.parity * s.remote_half[k] +
                    s.remote_first[k];
    check(cudaMemcpyAsync(to, static_cast<const char*>(packed) + s.send_first[k], s.send_bytes[k],
                          cudaMemcpyDeviceToDevice, 0),
          "peer copy of ghost values");
  }
  // The event follows the copies and everything before them on the stream: the previous
  // product's reads of the half a peer fills next time.
  check(cudaEventRecord(s.copied, 0), "cudaEventRecord");
}

const void* PeerGhosts::receive() {
  auto& s = *state_;
  check(cudaEventSynchronize(s.copied), "cudaEventSynchronize");
  s.comm->exchange(std::span<const Communicator::Transfer>(s.signals));
  const void* received = s.window->local() + s.parity * s.half;
  s.parity = 1 - s.parity;
  return received;
}

}  // namespace solvent::cuda
