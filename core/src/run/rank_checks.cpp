#include "run/rank_checks.hpp"

#include "config/config_validation.hpp"
#include "record/host_info.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#ifdef _OPENMP
#include <omp.h>
#endif

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

unsigned threads_for_shared_host(unsigned allowed, unsigned cores, unsigned ranks) {
  return std::max(1u, std::min(allowed, cores / std::max(1u, ranks)));
}

std::string share_host_cores(const Communicator& comm) {
  if (comm.size() == 1) return {};
  const auto host = probe_host();
  const auto hosts = comm.gather_all(host.hostname);
  const auto sharing =
      static_cast<unsigned>(std::count(hosts.begin(), hosts.end(), host.hostname));
  // Set by the solvent command where it divided them before OpenMP started
  // (apps/solvent/rank_threads.cpp); OMP_NUM_THREADS then holds the count.
  const bool at_start = std::getenv("SOLVENT_THREADS_SHARED") != nullptr;
  const bool chosen = std::getenv("OMP_NUM_THREADS") != nullptr;
  const unsigned threads = threads_for_shared_host(host.cores_allowed, host.cores, sharing);
  std::string mine;
  if (at_start) {
    mine = fmt::format("{} (set before OpenMP started)", host.threads);
  } else if (!chosen && sharing > 1 && threads < host.cores_allowed) {
#ifdef _OPENMP
    omp_set_num_threads(static_cast<int>(threads));
#endif
    // For the record (probe_host reads it) and for threads started later.
    setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    mine = fmt::format("{} (set in the process)", threads);
  }
  const auto all = comm.gather_all(mine);
  std::vector<std::string> parts;
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty()) parts.push_back(fmt::format("rank {}: {}", r, all[r]));
  if (comm.rank() != 0 || parts.empty()) return {};
  return fmt::format(
      "ranks sharing a host divide its cores, OpenMP threads {} (OMP_NUM_THREADS, where set, "
      "chooses them)",
      fmt::join(parts, ", "));
}

std::vector<std::string> describe_ranks(const Communicator& comm) {
  const auto host = probe_host();
  std::string gpu;
  if (host.gpus != "none") {
    // The rule every CUDA plugin follows over ranks (solvent::cuda::select_rank_device).
    const int count = 1 + static_cast<int>(std::count(host.gpus.begin(), host.gpus.end(), ';'));
    gpu = fmt::format(", GPU {} of {} when a plugin uses one", comm.local_rank() % count, count);
  }
  return comm.gather_all(fmt::format("{}, {} threads on {} of {} cores, local rank {}{}",
                                     host.hostname, host.threads, host.cores_allowed, host.cores,
                                     comm.local_rank(), gpu));
}

std::string binding_warning(const Communicator& comm) {
  const auto host = probe_host();
  const bool chosen = std::getenv("OMP_NUM_THREADS") != nullptr;
  const bool held = !chosen && host.cores_allowed == 1 &&
                    host.cores > static_cast<unsigned>(comm.size());
  const auto all = comm.gather_all(held ? std::to_string(comm.rank()) : std::string());
  std::vector<std::string> ranks;
  for (const auto& r : all)
    if (!r.empty()) ranks.push_back(r);
  if (comm.rank() != 0 || ranks.empty()) return {};
  return fmt::format(
      "rank{} {} may run on 1 of the host's {} cores only (its CPU affinity; mpirun binds each "
      "rank to one core by default with up to two ranks), so its set-up, CPU solvers and "
      "output use one thread: start it with mpirun --bind-to none, or --map-by slot:PE=<cores "
      "per rank>, or set OMP_NUM_THREADS to say one thread is meant",
      ranks.size() == 1 ? "" : "s", fmt::join(ranks, ", "), host.cores);
}

}  // namespace solvent
