#include "cuda/matm_cuda_solver.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/peer_window.hpp>
#include <solvent/device/rank_device.hpp>
#include <solvent_matm/calibration.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <string>
#include <vector>

namespace solvent::matm::cuda {
namespace {

// Every rank's device ("cuda", "cpu", or "!" and why this rank's GPU failed), gathered: a GPU
// that failed on one rank fails every rank with the same error, so that none goes on into the
// next collective while that rank reports.
std::vector<std::string> agree_on_devices(const Communicator& comm, const std::string& mine) {
  const auto all = comm.gather_all(mine);
  for (std::size_t r = 0; r < all.size(); ++r)
    if (all[r].starts_with('!'))
      throw DeviceUnavailable("rank " + std::to_string(r) + ": " + all[r].substr(1));
  return all;
}

}  // namespace

Schema matm_cuda_schema() {
  Schema s = iteration_schema();
  s.push_back(ParamSpec::integer("block_x", 0,
                                 "threads along x in a sweep block (a multiple of 32 "
                                 "unless sweep = \"paper\"); 0: the grid's x extent rounded "
                                 "up to 32, at most 256")
                  .at_least(0)
                  .at_most(1024));
  s.push_back(ParamSpec::integer("block_z", 0,
                                 "z layers in a sweep block; the block marches along y; 0: "
                                 "512 threads' worth")
                  .at_least(0)
                  .at_most(1024));
  s.push_back(ParamSpec::choice(
      "sweep", "warp-scan", {"warp-scan", "paper"},
      "warp-scan: a warp solves 32 x-nodes of a line by a scan (coalesced); "
      "paper: Sukhinov et al.'s Algorithm 2, one node per thread on the i + j + k wavefront"));
  s.push_back(fragments_parameter());
  s.push_back(coupling_parameter());
  s.push_back(ParamSpec::string(
      "device", "cuda",
      "where each rank runs: \"cuda\" or \"cpu\" (every rank), \"auto\" (a GPU where the "
      "rank's local rank is below its host's GPU count, else the CPU), or one entry per rank, "
      "e.g. \"cuda,cpu,cpu\""));
  s.push_back(threads_parameter());
  return s;
}

MatmCudaSolver::MatmCudaSolver(const PluginContext& ctx)
    : SolverBase(ctx, "matm-cuda"),
      fragments_(static_cast<int>(ctx.params.integer("fragments"))),
      pipelined_(ctx.params.string("coupling") == "pipeline"),
      comm_(ctx.comm) {
  shape_.block_x = static_cast<int>(ctx.params.integer("block_x"));
  shape_.block_z = static_cast<int>(ctx.params.integer("block_z"));
  shape_.paper = ctx.params.string("sweep") == "paper";
  if (shape_.block_x * shape_.block_z > max_sweep_threads)
    throw ConfigError(
        {"matm-cuda: block_x * block_z = " + std::to_string(shape_.block_x * shape_.block_z) +
         " exceeds " + std::to_string(max_sweep_threads) + " threads per block"});
  if (!shape_.paper && shape_.block_x % 32 != 0)
    throw ConfigError({"matm-cuda: block_x = " + std::to_string(shape_.block_x) +
                       " must be a multiple of 32 with sweep = \"warp-scan\""});
  const Communicator& comm = *ctx.comm;
  const std::string device = ctx.params.string("device");
  // The host's GPUs matter to "auto" alone; otherwise a rank listed on the CPU never touches
  // the CUDA runtime, so such runs need no GPU at all.
  on_gpu_ = rank_device(device, comm, device == "auto" ? solvent::cuda::available_devices() : 0,
                        "matm-cuda") == RankDevice::Cuda;
  std::string mine = on_gpu_ ? "cuda" : "cpu";
  if (on_gpu_ && comm.size() > 1) {
    // Over ranks, this rank's GPU ("auto" gives the GPUs to local ranks below the host's
    // count, so local_rank is the one), chosen but not yet made current: making it current
    // makes its context, which ContextStart does below on a thread of its own while the
    // model assembles and the split is made (the plugins phase of four ranks making theirs
    // at once took 1.2 s, 0.8 s since). A failure is shared below rather than thrown here:
    // with CPU ranks beside, it may be this rank's alone.
    try {
      ordinal_ = solvent::cuda::rank_device_ordinal(comm, "matm-cuda");
      device_name_ = solvent::cuda::device_label(ordinal_, "matm-cuda");
    } catch (const Error& e) {
      mine = std::string("!") + e.what();
    }
  } else if (!on_gpu_) {
    threads_ = cpu_threads(static_cast<int>(ctx.params.integer("threads")));
    device_name_ = "cpu (" + std::to_string(threads_) + " threads)";
  }
  // Every rank makes this one collective, whatever its device; the record names every
  // rank's device.
  if (comm.size() > 1) {
    const auto all = agree_on_devices(comm, mine);
    devices_ = fmt::format("{}", fmt::join(all, ", "));
    // The sweeps go GPU to GPU where every rank has a GPU of its own on this host (the same
    // answer on every rank, so all of them or none make the collective).
    const bool all_on_gpu =
        std::all_of(all.begin(), all.end(), [](const auto& d) { return d == "cuda"; });
    peer_to_peer_ =
        all_on_gpu && pipelined_ && solvent::cuda::PeerWindow::available_on(comm, ordinal_, true);
  }
  // The device's context is made while the model assembles and the split is made, not at
  // this solver's set-up.
  if (on_gpu_)
    context_start_ = ordinal_ >= 0 ? std::make_unique<solvent::cuda::ContextStart>(ordinal_)
                                   : std::make_unique<solvent::cuda::ContextStart>();
}

void MatmCudaSolver::probe_device() {
  // No context is needed to find the device: DeviceUnavailable without a GPU.
  if (on_gpu_ && device_name_.empty()) device_name_ = solvent::cuda::current_device("matm-cuda");
}

void MatmCudaSolver::make_current() {
  if (context_start_) context_start_->wait();
  // Its context made, the rank's GPU becomes this thread's at once.
  if (ordinal_ >= 0) solvent::cuda::select_device(ordinal_, "matm-cuda");
}

void MatmCudaSolver::make_current_on_every_rank() {
  if (comm_->size() == 1) {
    make_current();
    return;
  }
  // A context that could not be made (a GPU in exclusive mode already taken, no memory for
  // the context) is shared as the constructor's probe shares a missing GPU.
  std::string mine = on_gpu_ ? "cuda" : "cpu";
  if (on_gpu_) try {
      make_current();
    } catch (const Error& e) {
      mine = std::string("!") + e.what();
    }
  agree_on_devices(*comm_, mine);
}

void MatmCudaSolver::setup_impl(std::shared_ptr<const Operator> op) {
  const auto& a = std::get<Stencil7<double>>(*op);
  device_.reset();
  split_.reset();
  if (!on_gpu_) {
    split_.emplace(a, name_);
    ghost_layer_ = split_->has_ghost_layer();
    if (log_)
      log_->info("matm-cuda: {} x {} x {} grid on the CPU, {} thread(s)", split_->grid()[0],
                 split_->grid()[1], split_->grid()[2], threads_);
    make_current_on_every_rank();  // the GPU ranks' collective
    return;
  }
  probe_device();
  // The two halves of the set-up, for the record: the split on the host, then the device's
  // context awaited, its memory and the operator's upload.
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const SplitStencil split(a, name_, peer_to_peer_);
  ghost_layer_ = split.has_ghost_layer();
  const auto split_done = clock::now();
  // The split on the host came first: the device's context was being made meanwhile.
  make_current_on_every_rank();
  device_ = std::make_unique<DeviceMatm>(split, shape_, fragments_, pipelined_, peer_to_peer_);
  setup_seconds_ = {std::chrono::duration<double>(split_done - start).count(),
                    std::chrono::duration<double>(clock::now() - split_done).count()};
  if (log_)
    log_->info(
        "matm-cuda: {} x {} x {} grid on {}, {} MiB on the device, sweep {} with blocks {} x {}{}",
        split.grid()[0], split.grid()[1], split.grid()[2], device_name_,
        device_->device_bytes() >> 20, shape_.paper ? "paper" : "warp-scan",
        device_->shape().block_x, device_->shape().block_z,
        !split.has_ghost_layer()         ? ""
        : device_->sweeps_peer_to_peer() ? ", sweeps GPU to GPU in one wavefront"
                                         : ", " + std::to_string(device_->fragments()) +
                                               " fragments a sweep, staged through the host");
}

SolveStats MatmCudaSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  SolveStats st;
  if (!on_gpu_) {
    // The backend writes the iterate into x when it goes, at the end of this scope.
    CpuBackend backend(*split_, b, x, threads_, fragments_, pipelined_);
    st = run(backend);
    phases_ = "cpu";
  } else {
    // The solve's host time in its parts, for the record: the iterations against the copies.
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    device_->upload(b, x);
    const auto t1 = clock::now();
    st = run(*device_);
    const auto t2 = clock::now();
    device_->download(x);
    const auto seconds = [](auto a, auto b) {
      return std::chrono::duration<double>(b - a).count();
    };
    solve_parts_ = fmt::format("upload {:.3f}, iterations {:.3f}, download {:.3f}", seconds(t0, t1),
                               seconds(t1, t2), seconds(t2, clock::now()));
    device_seconds_ = device_->device_seconds();
    const double its = double(std::max<std::int64_t>(st.iterations, 1));
    phases_ = device_->phases().per_iteration(its);
    if (log_ && st.iterations > 0)
      log_->info("matm-cuda: {:.3f} ms per iteration on the device ({})",
                 1e3 * device_seconds_ / its, phases_);
  }
  // Every rank's, so that a rank that waits on its neighbours is seen beside them.
  if (comm_->size() > 1)
    phases_each_rank_ = fmt::format("{}", fmt::join(comm_->gather_all(phases_), "; "));
  return st;
}

double MatmCudaSolver::measured_speed() {
  if (!on_gpu_) return cpu_measured_speed(threads_, name_);
  probe_device();
  // Not shared over the ranks: a rank whose speed the tests give measures nothing, so this
  // is no collective. A failure here ends the run from this rank (end_all_ranks).
  make_current();
  const Stencil7<double> a =
      calibration_stencil(calibration_gpu_nodes, calibration_gpu_nodes, calibration_gpu_nodes);
  const SplitStencil split(a, name_);
  DeviceMatm backend(split, shape_, 1, true, false);
  const std::vector<double> f(a.size(), 1.0), x(a.size(), 0.0);
  backend.upload(f, x);
  return time_corrections(backend, a.size());
}

Facts MatmCudaSolver::facts() const {
  Facts f{{"device", device_name_}};
  if (!devices_.empty()) {
    f.push_back({"device_each_rank", devices_});
    if (!phases_each_rank_.empty())
      f.push_back({"device_ms_per_iteration_by_phase_each_rank", phases_each_rank_});
    f.push_back({"ghost_layer", ghost_layer_ ? "true" : "false"});
    f.push_back({"coupling", pipelined_ ? "pipeline" : "block"});
    if (device_ && pipelined_ && ghost_layer_)
      f.push_back({"sweep_handoff", device_->sweeps_peer_to_peer() ? "GPU peer" : "host-staged"});
  }
  if (device_) {
    f.push_back({"setup_split_seconds", fmt::format("{:.3f}", setup_seconds_[0])});
    f.push_back({"setup_device_seconds", fmt::format("{:.3f}", setup_seconds_[1])});
  }
  if (on_gpu_) {
    f.push_back({"sweep", shape_.paper ? "paper" : "warp-scan"});
    const SweepShape& used = device_ ? device_->shape() : shape_;
    f.push_back({"block", std::to_string(used.block_x) + "x" + std::to_string(used.block_z)});
  } else {
    f.push_back({"threads", std::to_string(threads_)});
  }
  if (last_) {
    for (auto& kv : outcome()) f.push_back(kv);
    if (on_gpu_) {
      std::ostringstream s;
      s << device_seconds_;
      f.push_back({"device_seconds", s.str()});
      f.push_back({"device_ms_per_iteration_by_phase", phases_});
      f.push_back({"solve_seconds_by_part", solve_parts_});
    }
  }
  return f;
}

}  // namespace solvent::matm::cuda
