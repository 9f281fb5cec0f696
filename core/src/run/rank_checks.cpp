#include "run/rank_checks.hpp"

#include "config/config_validation.hpp"
#include "record/host_info.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace solvent {

std::vector<std::string> rank_problems(const ResolvedConfig& cfg, int ranks) {
  std::vector<std::string> out;
  auto check = [&](const std::optional<ResolvedRole>& role, std::string_view section) {
    if (!role) return;
    const auto max = role->plugin->descriptor->max_ranks;
    if (max == 0 || static_cast<int>(max) >= ranks) return;
    out.push_back(fmt::format(
        "{}: [{}] plugin '{}' runs on {} rank{} only; this run has {} (mpirun -n {}): run it "
        "without mpirun, or choose a distributed plugin (solvent plugins)",
        role->where, section, role->type, max, max == 1 ? "" : "s", ranks, ranks));
  };
  check(cfg.model, "model");
  check(cfg.integrator, "integrator");
  check(cfg.linear_solver, "linear_solver");
  check(cfg.preconditioner, "preconditioner");
  return out;
}

std::vector<std::string> describe_ranks(const Communicator& comm) {
  const auto host = probe_host();
  std::string gpu;
  if (host.gpus != "none") {
    // The rule every CUDA plugin follows over ranks (solvent::cuda::select_rank_device).
    const int count = 1 + static_cast<int>(std::count(host.gpus.begin(), host.gpus.end(), ';'));
    gpu = fmt::format(", GPU {} of {} when a plugin uses one", comm.local_rank() % count, count);
  }
  return comm.gather_all(fmt::format("{}, {} threads, local rank {}{}", host.hostname,
                                     host.threads, comm.local_rank(), gpu));
}

}  // namespace solvent
