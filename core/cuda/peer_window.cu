#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/device/peer_window.hpp>

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace solvent::cuda {

namespace {
// What a rank publishes: its host, GPU, the IPC handle of its window and the window's parts.
struct Published {
  char host[64];
  int device;
  cudaIpcMemHandle_t handle;
  std::size_t offset[7];
};

Published mine_without_handle(int device) {
  Published p{};
  gethostname(p.host, sizeof p.host - 1);
  p.device = device;
  return p;
}

int current(const char* context) {
  int device = 0;
  check(cudaGetDevice(&device), context, "cudaGetDevice");
  return device;
}

std::vector<Published> gather(const Communicator& comm, const Published& mine) {
  const auto all = comm.gather_all(std::string(reinterpret_cast<const char*>(&mine), sizeof mine));
  std::vector<Published> out(all.size());
  for (std::size_t r = 0; r < all.size(); ++r) std::memcpy(&out[r], all[r].data(), sizeof mine);
  return out;
}
}  // namespace

struct PeerWindow::State {
  const Communicator* comm = nullptr;
  DeviceArray<std::byte> memory;  // freed after the destructor's barrier
  std::vector<std::byte*> remote;
  std::vector<std::array<std::size_t, 7>> remote_offset;
};

bool PeerWindow::available(const Communicator& comm, bool distinct_devices) {
  return available_on(comm, current("GPU peer window"), distinct_devices);
}

bool PeerWindow::available_on(const Communicator& comm, int device, bool distinct_devices) {
  const char* context = "GPU peer window";
  const char* mode = std::getenv("SOLVENT_CUDA_HALO");
  bool ok = !(mode && std::string(mode) == "host");
  const Published mine = mine_without_handle(device);
  const auto all = gather(comm, mine);
  for (std::size_t r = 0; r < all.size() && ok; ++r) {
    const Published& p = all[r];
    if (std::strncmp(p.host, mine.host, sizeof mine.host) != 0) ok = false;
    if (!ok || static_cast<int>(r) == comm.rank()) continue;
    if (p.device == mine.device) {
      ok = !distinct_devices;
      continue;
    }
    int can = 0;
    check(cudaDeviceCanAccessPeer(&can, mine.device, p.device), context, "cudaDeviceCanAccessPeer");
    ok = can != 0;
  }
  // Every rank must agree, or a pair would wait for each other on different paths.
  double verdict = ok ? 0.0 : 1.0;
  comm.max(std::span<double>(&verdict, 1));
  return verdict == 0.0;
}

PeerWindow::PeerWindow(const Communicator& comm, std::span<const int> neighbours,
                       std::span<const std::size_t> offset, std::size_t bytes, const char* context)
    : state_(std::make_unique<State>()) {
  auto& s = *state_;
  s.comm = &comm;
  // At least one byte: an IPC handle needs an allocation.
  s.memory = DeviceArray<std::byte>(bytes > 0 ? bytes : 1, context);
  Published mine = mine_without_handle(current(context));
  check(cudaIpcGetMemHandle(&mine.handle, s.memory.data()), context, "cudaIpcGetMemHandle");
  for (std::size_t f = 0; f < offset.size() && f < 7; ++f) mine.offset[f] = offset[f];
  const auto all = gather(comm, mine);
  s.remote.assign(neighbours.size(), nullptr);
  s.remote_offset.assign(neighbours.size(), {});
  for (std::size_t f = 0; f < neighbours.size(); ++f) {
    if (neighbours[f] < 0) continue;
    const Published& p = all[static_cast<std::size_t>(neighbours[f])];
    void* remote = nullptr;
    check(cudaIpcOpenMemHandle(&remote, p.handle, cudaIpcMemLazyEnablePeerAccess), context,
          "cudaIpcOpenMemHandle");
    s.remote[f] = static_cast<std::byte*>(remote);
    for (int g = 0; g < 7; ++g) s.remote_offset[f][g] = p.offset[g];
  }
}

PeerWindow::~PeerWindow() {
  auto& s = *state_;
  // A neighbour may still write into this window until it passes its last use of it. A
  // barrier that fails (a rank is gone) ends the run anyway: nothing is left to protect.
  try {
    s.comm->barrier();
  } catch (const std::exception&) {
  }
  for (std::byte* r : s.remote)
    if (r) cudaIpcCloseMemHandle(r);
}

std::byte* PeerWindow::local() const { return state_->memory.data(); }
std::byte* PeerWindow::remote(int f) const { return state_->remote[static_cast<std::size_t>(f)]; }
const std::array<std::size_t, 7>& PeerWindow::remote_offset(int f) const {
  return state_->remote_offset[static_cast<std::size_t>(f)];
}

}  // namespace solvent::cuda
