// Scaling of the Krylov solvers over MPI ranks on grid-equations-3d (one GPU per rank, or CPU
// ranks): a fixed number of iterations of cg or bicgstab (Jacobi-preconditioned) on the
// rank's block, timed between barriers, with the time one halo exchange adds to a product
// measured beside it (the distributed product against the same block's product without
// its faces' exchange). Run it under mpirun; rank 0 prints one Markdown row:
//
//   mpirun -n P scaling-benchmark --solver cg-cuda|bicgstab-cuda|cg|bicgstab
//          --problem poisson|convection --n N [--weak 1] [--iterations 100] [--repeat 3]
//
// N is the global grid's nodes per axis (strong scaling); with --weak 1 each rank gets an
// N^3 block (the global grid N x N x P N). The halo path is GPU to GPU where every rank is on
// one host, host-staged MPI otherwise or with SOLVENT_CUDA_HALO=host.
//
//   mpirun -n 2 scaling-benchmark --halo-sweep 1
//
// times one face exchange between two ranks' GPUs for faces of 16 KiB to 64 MiB, both paths
// (GPU peer copies with their handshake; device-to-host copy, MPI, host-to-device copy):
// the a + b V of the transfer model, one row per size.
//
//   mpirun -n 2 scaling-benchmark --transfer cpu-cpu|gpu-cpu|gpu-gpu
//
// times one boundary plane of V doubles sent one way (Communicator::send and receive, what
// the MATM pipeline sends between ranks; half a round trip), from and into host memory or
// a GPU's (staged through page-locked host memory, as a GPU rank sends), for V from 100 to
// 10^6 (the range of Sukhinov et al.), one row per V, then the least-squares fit
// T = a + b V over V >= 10^4 with its coefficient of determination R^2.
#include "ranks/communicator_world.hpp"

#include <solvent_krylov/bicgstab.hpp>
#include <solvent_krylov/cg.hpp>
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/solve_system.hpp>
#ifdef SCALING_BENCHMARK_CUDA
#include <solvent_krylov/device_space.hpp>
#include <solvent_test/device_timing.hpp>
#endif

#include <solvent/plugin_factory.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using solvent::Communicator;

struct Args {
  std::string solver = "cg-cuda", problem = "poisson";
  long n = 128, iterations = 100, repeat = 3;
  bool weak = false, halo_sweep = false;
  std::string transfer;  // "", or the pair of ends: cpu-cpu, gpu-cpu, gpu-gpu
};

Args parse(int argc, char** argv) {
  Args a;
  std::map<std::string, std::string> kv;
  for (int i = 1; i + 1 < argc; i += 2) kv[argv[i]] = argv[i + 1];
  if (kv.count("--solver")) a.solver = kv["--solver"];
  if (kv.count("--problem")) a.problem = kv["--problem"];
  if (kv.count("--n")) a.n = std::stol(kv["--n"]);
  if (kv.count("--iterations")) a.iterations = std::stol(kv["--iterations"]);
  if (kv.count("--repeat")) a.repeat = std::stol(kv["--repeat"]);
  if (kv.count("--weak")) a.weak = kv["--weak"] == "1";
  if (kv.count("--halo-sweep")) a.halo_sweep = kv["--halo-sweep"] == "1";
  if (kv.count("--transfer")) a.transfer = kv["--transfer"];
  return a;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds of `f`, the slowest rank's, between barriers.
template <class F>
double timed(const Communicator& comm, F&& f) {
  comm.barrier();
  const auto start = Clock::now();
  f();
  double s = std::chrono::duration<double>(Clock::now() - start).count();
  comm.max(std::span<double>(&s, 1));
  return s;
}

template <class Method, class Space>
void run(const Args& a, const Communicator& comm, const solvent::Stencil7<double>& block,
         const std::vector<double>& b, const solvent::Preconditioner* pc, const char* device) {
  const Space space(&block, pc);
  solvent::krylov::KrylovOptions o;
  o.tolerance = 1e-30;  // never reached: every solve runs the full count
  o.max_iterations = a.iterations;
  o.stagnation_window = a.iterations + 1;
  std::vector<double> x(b.size());
  std::vector<double> solve_s;
  std::int64_t iterations = 0;
  double residual = 0;
  for (long r = 0; r < a.repeat; ++r)
    solve_s.push_back(timed(comm, [&] {
      const auto st = solvent::krylov::solve_system<Method>(space, b, x, o);
      iterations = st.iterations;
      residual = st.residual;
    }));
  // The halo's share of one product: the distributed product against the block's own.
  solvent::Stencil7<double> alone = block;
  alone.block.reset();
  const Space local(&alone, pc);
  auto u = space.upload(b);
  auto v = space.vector();
  auto u_local = local.upload(b);
  auto v_local = local.vector();
  constexpr int products = 20;
  std::vector<double> with_halo, without;
  for (long r = 0; r < a.repeat; ++r) {
    with_halo.push_back(timed(comm,
                              [&] {
                                for (int k = 0; k < products; ++k) space.apply(u, v);
                                space.dot(v, v);  // waits for the device
                              }) /
                        products);
    without.push_back(timed(comm,
                            [&] {
                              for (int k = 0; k < products; ++k) local.apply(u_local, v_local);
                              local.dot(v_local, v_local);
                            }) /
                      products);
  }
  const std::string halo_path = comm.size() == 1               ? "-"
                                : std::string(device) == "cpu" ? "MPI"
                                : (std::getenv("SOLVENT_CUDA_HALO") &&
                                   std::string(std::getenv("SOLVENT_CUDA_HALO")) == "host")
                                    ? "host-staged MPI"
                                    : "GPU peer (auto)";
  // Halo bytes a rank receives per product (the largest over ranks).
  double halo_bytes = 0;
  if (block.distributed()) {
    solvent::HaloExchange<double> h(*block.block, solvent::HaloExchange<double>::Layout::Block);
    halo_bytes = double(h.receive_buffer().size() * sizeof(double));
  }
  comm.max(std::span<double>(&halo_bytes, 1));
  const double per_iteration = median(solve_s) / double(std::max<std::int64_t>(iterations, 1));
  if (comm.rank() == 0) {
    const auto& split =
        block.block ? block.block->blocks.split : solvent::GridBlocks::Index3{1, 1, 1};
    const auto& nodes =
        block.block ? block.block->blocks.nodes
                    : solvent::GridBlocks::Index3{int(block.n1), int(block.n2), int(block.n3)};
    std::printf(
        "| %s | %s | %s | %d | %dx%dx%d | %dx%dx%d | %s | %lld | %.3f | %.1f | %.3f | %.3f | %.2e "
        "|\n",
        a.solver.c_str(), a.problem.c_str(), a.weak ? "weak" : "strong", comm.size(), nodes[0],
        nodes[1], nodes[2], split[0], split[1], split[2], halo_path.c_str(),
        static_cast<long long>(iterations), 1e3 * per_iteration, halo_bytes / 1024.0,
        1e3 * median(with_halo), 1e3 * (median(with_halo) - median(without)), residual);
    std::fflush(stdout);
  }
}

// The ends of a one-way transfer: host memory, or a GPU's staged through page-locked host
// memory (copied out before the send, in after the receive).
struct TransferEnd {
  explicit TransferEnd(bool gpu, std::size_t count);
  void send(const Communicator& comm, int peer);
  void receive(const Communicator& comm, int peer);

  bool gpu;
  std::vector<double> host;
#ifdef SCALING_BENCHMARK_CUDA
  solvent::cuda::DeviceArray<double> device;
  solvent::cuda::PinnedRegion pinned;
#endif
};

#ifdef SCALING_BENCHMARK_CUDA
TransferEnd::TransferEnd(bool g, std::size_t count) : gpu(g), host(count, 1.0) {
  if (!gpu) return;  // a CPU end touches no CUDA call, so it runs where there is no GPU
  device = solvent::cuda::DeviceArray<double>(count);
  pinned = solvent::cuda::PinnedRegion(host.data(), count * sizeof(double));
}
void TransferEnd::send(const Communicator& comm, int peer) {
  if (gpu) solvent::cuda::copy_to_host(host.data(), device.data(), host.size() * sizeof(double));
  comm.send(peer, std::as_bytes(std::span<const double>(host)));
}
void TransferEnd::receive(const Communicator& comm, int peer) {
  comm.receive(peer, std::as_writable_bytes(std::span<double>(host)));
  if (gpu) solvent::cuda::copy_to_device(device.data(), host.data(), host.size() * sizeof(double));
}
#else
TransferEnd::TransferEnd(bool g, std::size_t count) : gpu(g), host(count, 1.0) {
  if (g) throw solvent::Error("--transfer with a GPU end: built without CUDA");
}
void TransferEnd::send(const Communicator& comm, int peer) {
  comm.send(peer, std::as_bytes(std::span<const double>(host)));
}
void TransferEnd::receive(const Communicator& comm, int peer) {
  comm.receive(peer, std::as_writable_bytes(std::span<double>(host)));
}
#endif

// Rank 0 is the first end of `pair`, rank 1 the second.
void transfer_sweep(const Communicator& comm, const std::string& pair) {
  if (comm.size() != 2) throw solvent::Error("--transfer takes exactly 2 ranks");
  if (pair != "cpu-cpu" && pair != "gpu-cpu" && pair != "gpu-gpu")
    throw solvent::Error("--transfer " + pair + ": not cpu-cpu, gpu-cpu or gpu-gpu");
  const bool gpu = comm.rank() == 0 ? pair.starts_with("gpu") : pair.ends_with("gpu");
  const int peer = 1 - comm.rank();
  if (comm.rank() == 0)
    std::printf(
        "| ends | V (doubles) | KiB | one way µs | GB/s |\n| --- | --- | --- | --- | --- |\n");
  std::vector<double> vs, ts;
  for (const double v : {1e2, 1e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6}) {
    TransferEnd end(gpu, static_cast<std::size_t>(v));
    constexpr int repeat = 21, rounds = 5;
    std::vector<double> one_way;
    for (int r = 0; r < repeat; ++r)
      one_way.push_back(timed(comm,
                              [&] {
                                for (int q = 0; q < rounds; ++q) {
                                  if (comm.rank() == 0) {
                                    end.send(comm, peer);
                                    end.receive(comm, peer);
                                  } else {
                                    end.receive(comm, peer);
                                    end.send(comm, peer);
                                  }
                                }
                              }) /
                        (2 * rounds));
    const double t = median(one_way);
    if (comm.rank() == 0)
      std::printf("| %s | %.0f | %.1f | %.1f | %.2f |\n", pair.c_str(), v, v * 8 / 1024, 1e6 * t,
                  v * 8 / t / 1e9);
    if (v >= 1e4) {
      vs.push_back(v);
      ts.push_back(1e6 * t);
    }
  }
  // Ordinary least squares, as the paper fits: T [µs] = a + b V.
  const double n = double(vs.size());
  double mv = 0, mt = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    mv += vs[i] / n;
    mt += ts[i] / n;
  }
  double svv = 0, svt = 0, stt = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    svv += (vs[i] - mv) * (vs[i] - mv);
    svt += (vs[i] - mv) * (ts[i] - mt);
    stt += (ts[i] - mt) * (ts[i] - mt);
  }
  const double b = svt / svv, a = mt - b * mv, r2 = svt * svt / (svv * stt);
  if (comm.rank() == 0)
    std::printf(
        "\nfit %s, V from 1e4 to 1e6: T = a + b V with a = %.2f µs, b = %.3e µs per "
        "double (%.2f GB/s), R^2 = %.4f\n",
        pair.c_str(), a, b, 8e-3 / b, r2);
}

#ifdef SCALING_BENCHMARK_CUDA
// One face of `bytes` between two ranks (a 512 x m x 2 grid cut across axis 3), exchanged
// `repeat` times each way; the median of the slowest rank's time per exchange.
void halo_sweep(const Communicator& comm) {
  namespace device = solvent::krylov::device;
  if (comm.size() != 2) throw solvent::Error("--halo-sweep takes exactly 2 ranks");
  if (comm.rank() == 0)
    std::printf(
        "| face KiB | GPU peer µs | GPU peer GB/s | host-staged µs | host-staged GB/s |\n"
        "| --- | --- | --- | --- | --- |\n");
  for (std::size_t kib = 16; kib <= 64 * 1024; kib *= 4) {
    const int m = int(kib * 1024 / 8 / 512);
    const solvent::GridBlock block{solvent::GridBlocks({512, m, 2}, 2, {1, 1, 2}), comm.rank(),
                                   &comm};
    solvent::HaloExchange<double> host(block, solvent::HaloExchange<double>::Layout::Block);
    const std::size_t n = host.send_buffer().size();
    solvent::cuda::DeviceArray<double> send(n), receive(n);
    std::array<std::size_t, 7> offsets;
    for (int f = 0; f <= 6; ++f) offsets[f] = host.face_offset(f);
    solvent::cuda::PeerHalo peer(block, offsets, sizeof(double));
    const solvent::cuda::PinnedRegion pinned_send(host.send_buffer().data(), n * sizeof(double));
    const solvent::cuda::PinnedRegion pinned_receive(host.receive_buffer().data(),
                                                     n * sizeof(double));
    constexpr int repeat = 30;
    std::vector<double> peer_s, host_s;
    for (int r = 0; r < repeat; ++r) {
      peer_s.push_back(timed(comm, [&] {
        peer.send(send.data());
        peer.receive();
      }));
      host_s.push_back(timed(comm, [&] {
        solvent::cuda::copy_to_host(host.send_buffer().data(), send.data(), n * sizeof(double));
        host.transfer();
        solvent::cuda::copy_to_device(receive.data(), host.receive_buffer().data(),
                                      n * sizeof(double));
      }));
    }
    const double bytes = double(n * sizeof(double));
    if (comm.rank() == 0)
      std::printf("| %zu | %.1f | %.1f | %.1f | %.1f |\n", kib, 1e6 * median(peer_s),
                  bytes / median(peer_s) / 1e9, 1e6 * median(host_s), bytes / median(host_s) / 1e9);
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
  int code = 0;
  {
    const Communicator& comm = solvent::world();
    try {
      const Args a = parse(argc, argv);
      const bool cuda = a.transfer.empty() ? a.halo_sweep || a.solver.ends_with("-cuda")
                                           : a.transfer.find("gpu") != std::string::npos;
      solvent::plugins::Settings s{{"n1", std::int64_t(a.n)},
                                   {"n2", std::int64_t(a.n)},
                                   {"n3", std::int64_t(a.weak ? a.n * comm.size() : a.n)}};
      if (a.problem == "convection") {
        s["problem"] = std::string("convection-diffusion");
        s["peclet"] = 100.0;
      }
      if (cuda) {
#ifdef SCALING_BENCHMARK_CUDA
        solvent::cuda::select_rank_device(comm, "scaling-benchmark");
        if (a.halo_sweep) {
          halo_sweep(comm);
          comm.barrier();
          solvent::finish_world();
          return 0;
        }
#else
        throw solvent::Error("built without CUDA");
#endif
      }
      if (!a.transfer.empty()) {
        transfer_sweep(comm, a.transfer);
        comm.barrier();
        solvent::finish_world();
        return 0;
      }
      double setup = 0;
      std::shared_ptr<solvent::Model> model;
      setup =
          timed(comm, [&] { model = solvent::plugins::make_model("grid-equations-3d", s, comm); });
      const auto op = model->linear()->matrix();
      const auto& block = std::get<solvent::Stencil7<double>>(*op);
      const auto b = std::get<std::vector<double>>(model->linear()->rhs());
      auto pc = solvent::plugins::make_preconditioner(cuda ? "jacobi-cuda" : "jacobi", {}, comm);
      pc->setup(op);
      if (comm.rank() == 0)
        std::fprintf(stderr, "assembly %.1f s on %d ranks\n", setup, comm.size());
      const bool cg = a.solver.starts_with("cg");
      if (!cuda) {
        if (cg)
          run<solvent::krylov::Cg, solvent::krylov::HostSpace<double>>(a, comm, block, b, pc.get(),
                                                                       "cpu");
        else
          run<solvent::krylov::Bicgstab, solvent::krylov::HostSpace<double>>(a, comm, block, b,
                                                                             pc.get(), "cpu");
      } else {
#ifdef SCALING_BENCHMARK_CUDA
        if (cg)
          run<solvent::krylov::Cg, solvent::krylov::DeviceSpace<double>>(a, comm, block, b,
                                                                         pc.get(), "cuda");
        else
          run<solvent::krylov::Bicgstab, solvent::krylov::DeviceSpace<double>>(a, comm, block, b,
                                                                               pc.get(), "cuda");
#endif
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "scaling-benchmark (rank %d): %s\n", comm.rank(), e.what());
      code = 1;
    }
  }
  solvent::finish_world();
  return code;
}
