#include <solvent/device/cuda.hpp>
#include <solvent/device/peer_halo.hpp>
#include <solvent/device/peer_window.hpp>

#include <cuda_runtime.h>

#include <optional>

namespace solvent::cuda {

namespace {
constexpr const char* context = "GPU peer halo";
void check(cudaError_t status, const char* what) { cuda::check(status, context, what); }
}  // namespace

struct PeerHalo::State {
  const Communicator* comm;
  std::array<int, 6> neighbours;
  std::array<std::size_t, 7> offset;  // this rank's faces, in bytes
  std::size_t half = 0;               // one parity's bytes
  // 2 halves, this rank's, opened by the neighbours.
  std::optional<PeerWindow> window;
  std::array<std::size_t, 6> remote_offset{};  // where our face f goes in its half (bytes)
  std::array<std::size_t, 6> remote_half{};    // the size of its halves (bytes)
  cudaEvent_t copied = nullptr;
  int parity = 0;
};

bool PeerHalo::available(const GridBlock& block) { return PeerWindow::available(*block.comm); }

PeerHalo::PeerHalo(const GridBlock& block, const std::array<std::size_t, 7>& face_offset,
                   std::size_t element_bytes)
    : state_(std::make_unique<State>()) {
  auto& s = *state_;
  s.comm = block.comm;
  s.neighbours = block.blocks.neighbours(block.rank);
  for (int f = 0; f < 7; ++f) s.offset[f] = face_offset[f] * element_bytes;
  s.half = s.offset[6];
  s.window.emplace(*s.comm, s.neighbours, s.offset, 2 * s.half, context);
  for (int f = 0; f < 6; ++f) {
    if (s.neighbours[f] < 0) continue;
    // Our face f is the neighbour's face across the other side (f xor 1).
    s.remote_offset[f] = s.window->remote_offset(f)[f ^ 1];
    s.remote_half[f] = s.window->remote_offset(f)[6];
  }
  check(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming), "cudaEventCreate");
}

PeerHalo::~PeerHalo() {
  // The window waits until no neighbour copies into it any more.
  if (state_->copied) cudaEventDestroy(state_->copied);
}

void* PeerHalo::destination(int f) const {
  const auto& s = *state_;
  if (s.neighbours[f] < 0) return nullptr;
  // The neighbour's half, not ours: with halves of different sizes, ours put the faces of
  // every second exchange past the end of a smaller buffer (cudaMemcpyAsync's "invalid
  // argument" on 4 ranks in a row), or into the other half of a larger one.
  return s.window->remote(f) + s.parity * s.remote_half[f] + s.remote_offset[f];
}

void PeerHalo::send(const void* packed) {
  auto& s = *state_;
  for (int f = 0; f < 6; ++f) {
    const std::size_t bytes = s.offset[f + 1] - s.offset[f];
    if (s.neighbours[f] < 0 || bytes == 0) continue;
    check(cudaMemcpyAsync(destination(f), static_cast<const char*>(packed) + s.offset[f], bytes,
                          cudaMemcpyDeviceToDevice, 0),
          "peer copy of a face");
  }
  sent();
}

void PeerHalo::sent() {
  // The event follows the copies (and everything before them on the stream, the previous
  // exchange's reads of the half a neighbour writes next time).
  check(cudaEventRecord(state_->copied, 0), "cudaEventRecord");
}

const void* PeerHalo::receive() {
  auto& s = *state_;
  check(cudaEventSynchronize(s.copied), "cudaEventSynchronize");
  for (int f = 0; f < 6; ++f)
    if (s.neighbours[f] >= 0) s.comm->exchange(s.neighbours[f], {}, {});
  const void* received = s.window->local() + s.parity * s.half;
  s.parity = 1 - s.parity;
  return received;
}

}  // namespace solvent::cuda
