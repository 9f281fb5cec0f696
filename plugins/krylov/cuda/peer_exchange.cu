#include <solvent_krylov/peer_exchange.hpp>

#include "cuda/cuda_support.cuh"

#include <solvent/device/device_array.hpp>

#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace solvent::krylov::device {

namespace {
// What a rank publishes: its host, GPU, the IPC handle of its receive buffer and the offsets
// of its faces in one half of it (face_offset[6]: the half's size, which differs between
// ranks: a rank at the end of an axis has one face on it, a rank inside has two).
struct Published {
  char host[64];
  int device;
  cudaIpcMemHandle_t handle;
  std::size_t face_offset[7];
};

std::string bytes_of(const Published& p) {
  return std::string(reinterpret_cast<const char*>(&p), sizeof p);
}
Published published_from(const std::string& s) {
  Published p;
  std::memcpy(&p, s.data(), sizeof p);
  return p;
}
void this_host(char (&host)[64]) {
  std::memset(host, 0, sizeof host);
  gethostname(host, sizeof host - 1);
}
}  // namespace

struct PeerExchange::State {
  const Communicator* comm;
  std::array<int, 6> neighbours;
  std::array<std::size_t, 7> offset;  // this rank's faces, in bytes
  std::size_t half = 0;               // one parity's bytes
  // 2 halves, this rank's; freed after the destructor's barrier, once no neighbour copies in.
  solvent::cuda::DeviceArray<std::byte> receive;
  std::array<char*, 6> remote{};               // the neighbour across f's receive buffer, opened
  std::array<std::size_t, 6> remote_offset{};  // where our face f goes in its half (bytes)
  std::array<std::size_t, 6> remote_half{};    // the size of its halves (bytes)
  cudaEvent_t copied = nullptr;
  int parity = 0;
};

bool PeerExchange::available(const GridBlock& block) {
  const char* mode = std::getenv("SOLVENT_CUDA_HALO");
  bool ok = !(mode && std::string(mode) == "host");
  Published mine{};
  this_host(mine.host);
  check(cudaGetDevice(&mine.device), "cudaGetDevice");
  const auto all = block.comm->gather_all(bytes_of(mine));
  for (const auto& s : all) {
    const Published p = published_from(s);
    if (std::strncmp(p.host, mine.host, sizeof mine.host) != 0) ok = false;
    if (ok && p.device != mine.device) {
      int can = 0;
      check(cudaDeviceCanAccessPeer(&can, mine.device, p.device), "cudaDeviceCanAccessPeer");
      ok = can != 0;
    }
  }
  // Every rank must agree, or a pair would wait on each other in different exchanges.
  double verdict = ok ? 0.0 : 1.0;
  block.comm->max(std::span<double>(&verdict, 1));
  return verdict == 0.0;
}

PeerExchange::PeerExchange(const GridBlock& block, const std::array<std::size_t, 7>& face_offset,
                           std::size_t element_bytes)
    : state_(std::make_unique<State>()) {
  auto& s = *state_;
  s.comm = block.comm;
  s.neighbours = block.blocks.neighbours(block.rank);
  for (int f = 0; f < 7; ++f) s.offset[f] = face_offset[f] * element_bytes;
  s.half = s.offset[6];
  s.receive = solvent::cuda::DeviceArray<std::byte>(2 * s.half + 1, "peer receive buffer");
  Published mine{};
  this_host(mine.host);
  check(cudaGetDevice(&mine.device), "cudaGetDevice");
  check(cudaIpcGetMemHandle(&mine.handle, s.receive.data()), "cudaIpcGetMemHandle");
  for (int f = 0; f < 7; ++f) mine.face_offset[f] = s.offset[f];
  const auto all = s.comm->gather_all(bytes_of(mine));
  for (int f = 0; f < 6; ++f) {
    if (s.neighbours[f] < 0) continue;
    const Published p = published_from(all[static_cast<std::size_t>(s.neighbours[f])]);
    void* remote = nullptr;
    check(cudaIpcOpenMemHandle(&remote, p.handle, cudaIpcMemLazyEnablePeerAccess),
          "cudaIpcOpenMemHandle");
    s.remote[f] = static_cast<char*>(remote);
    // Our face f is the neighbour's face across the other side (f xor 1).
    s.remote_offset[f] = p.face_offset[f ^ 1];
    s.remote_half[f] = p.face_offset[6];
  }
  check(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming), "cudaEventCreate");
}

PeerExchange::~PeerExchange() {
  auto& s = *state_;
  // The neighbours may still copy into our buffer until they pass their last exchange.
  s.comm->barrier();
  for (char* r : s.remote)
    if (r) cudaIpcCloseMemHandle(r);
  if (s.copied) cudaEventDestroy(s.copied);
}

void PeerExchange::send(const void* packed) {
  auto& s = *state_;
  for (int f = 0; f < 6; ++f) {
    const std::size_t bytes = s.offset[f + 1] - s.offset[f];
    if (s.neighbours[f] < 0 || bytes == 0) continue;
    // The neighbour's half, not ours: with halves of different sizes, ours put the faces of
    // every second exchange past the end of a smaller buffer (cudaMemcpyAsync's "invalid
    // argument" on 4 ranks in a row), or into the other half of a larger one.
    check(cudaMemcpyAsync(s.remote[f] + s.parity * s.remote_half[f] + s.remote_offset[f],
                          static_cast<const char*>(packed) + s.offset[f], bytes,
                          cudaMemcpyDeviceToDevice, 0),
          "peer copy of a face");
  }
  // The event follows the copies (and everything before them on the stream, the previous
  // product's face rows included, which read the half a neighbour writes next time).
  check(cudaEventRecord(s.copied, 0), "cudaEventRecord");
}

const void* PeerExchange::receive() {
  auto& s = *state_;
  check(cudaEventSynchronize(s.copied), "cudaEventSynchronize");
  for (int f = 0; f < 6; ++f)
    if (s.neighbours[f] >= 0) s.comm->exchange(s.neighbours[f], {}, {});
  const void* received = reinterpret_cast<const char*>(s.receive.data()) + s.parity * s.half;
  s.parity = 1 - s.parity;
  return received;
}

}  // namespace solvent::krylov::device
