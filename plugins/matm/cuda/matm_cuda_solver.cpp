#include "cuda/matm_cuda_solver.hpp"

#include <solvent/cuda.hpp>

#include <spdlog/spdlog.h>

#include <sstream>

namespace solvent::matm::cuda {

Schema matm_cuda_schema() {
  Schema s = iteration_schema();
  s.push_back(ParamSpec::integer("block_x", 64,
                                 "threads along x in a sweep block (a multiple of 32 "
                                 "unless sweep = \"paper\")")
                  .at_least(1)
                  .at_most(1024));
  s.push_back(
      ParamSpec::integer("block_z", 8, "z layers in a sweep block; the block marches along y")
          .at_least(1)
          .at_most(1024));
  s.push_back(ParamSpec::choice(
      "sweep", "warp-scan", {"warp-scan", "paper"},
      "warp-scan: a warp solves 32 x-nodes of a line by a scan (coalesced); "
      "paper: Sukhinov et al.'s Algorithm 2, one node per thread on the i + j + k wavefront"));
  s.push_back(fragments_parameter());
  return s;
}

MatmCudaSolver::MatmCudaSolver(const PluginContext& ctx)
    : SolverBase(ctx, "matm-cuda"), fragments_(static_cast<int>(ctx.params.integer("fragments"))) {
  shape_.block_x = static_cast<int>(ctx.params.integer("block_x"));
  shape_.block_z = static_cast<int>(ctx.params.integer("block_z"));
  shape_.paper = ctx.params.string("sweep") == "paper";
  if (shape_.block_x * shape_.block_z > 1024)
    throw ConfigError(
        {"matm-cuda: block_x * block_z = " + std::to_string(shape_.block_x * shape_.block_z) +
         " exceeds 1024 threads per block"});
  if (!shape_.paper && shape_.block_x % 32 != 0)
    throw ConfigError({"matm-cuda: block_x = " + std::to_string(shape_.block_x) +
                       " must be a multiple of 32 with sweep = \"warp-scan\""});
  // Over ranks, this rank's GPU, before anything touches a device.
  if (ctx.comm->size() > 1)
    device_name_ = solvent::cuda::select_rank_device(*ctx.comm, "matm-cuda");
}

void MatmCudaSolver::setup_impl(std::shared_ptr<const Operator> op) {
  if (device_name_.empty())
    device_name_ = solvent::cuda::current_device("matm-cuda");  // DeviceUnavailable without a GPU
  const auto& a = std::get<Stencil7<double>>(*op);
  device_.reset();
  const SplitStencil split(a, name_);
  device_ = std::make_unique<DeviceMatm>(split, shape_, fragments_);
  if (log_)
    log_->info(
        "matm-cuda: {} x {} x {} grid on {}, {} MiB on the device, sweep {} with blocks {} x {}{}",
        split.grid()[0], split.grid()[1], split.grid()[2], device_name_,
        device_->device_bytes() >> 20, shape_.paper ? "paper" : "warp-scan", shape_.block_x,
        shape_.block_z,
        split.block() ? ", " + std::to_string(device_->fragments()) + " fragments a sweep" : "");
}

SolveStats MatmCudaSolver::solve_impl(std::span<const double> b, std::span<double> x) {
  device_->upload(b, x);
  const SolveStats& st = run(*device_);
  device_->download(x);
  device_seconds_ = device_->device_seconds();
  if (log_ && st.iterations > 0)
    log_->info("matm-cuda: {:.3f} ms per iteration on the device",
               1e3 * device_seconds_ / double(st.iterations));
  return st;
}

Facts MatmCudaSolver::facts() const {
  Facts f{{"device", device_name_},
          {"sweep", shape_.paper ? "paper" : "warp-scan"},
          {"block", std::to_string(shape_.block_x) + "x" + std::to_string(shape_.block_z)}};
  if (last_) {
    for (auto& kv : outcome()) f.push_back(kv);
    std::ostringstream s;
    s << device_seconds_;
    f.push_back({"device_seconds", s.str()});
  }
  return f;
}

}  // namespace solvent::matm::cuda
