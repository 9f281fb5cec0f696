#pragma once
// [sweep] batch = "<integrator>": the members of a sweep that differ only in
// [model.parameters] are advanced together by that batched integrator (solvent/ensemble.hpp;
// imex-batched or imex-batched-cuda for angiogenesis-1d members run with imex-trapezoid and
// banded), in the sweep's own process, up to 64 at a time. Each member's directory is then
// written by the single-run path (run_experiment), which is handed the member's recorded steps
// in place of its integrator's run: config.toml, record.toml, observables and profiles as a
// member process writes them. Members that cannot be batched (alone in their group, a model
// without the ensemble extension, an [integrator] key the batched integrator lacks, a batch
// that fails as a whole) run as processes, with the reason logged. Under mpirun the members
// run as processes (a batch would have to live on one rank).
//
// A SIGINT or SIGTERM stops the batch in flight after its next report: the integrator writes
// every member's state into one checkpoint (batch_checkpoint_file), the members that failed
// in the batch are written as finished, the others as runs interrupted at that step, and the
// sweep stops. `solvent run --resume` continues that batch from its checkpoint, each member's
// folder as a resumed run continues it, to the bytes of an uninterrupted sweep.
#include "sweep/member_processes.hpp"
#include "sweep/sweep_plan.hpp"

#include <deque>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace solvent {

// The checkpoint of the batch a signal stopped: there is at most one, since batches run one at
// a time and the sweep stops with the one in flight.
std::filesystem::path batch_checkpoint_file(const std::filesystem::path& members_dir);

// The members of the stopped batch whose checkpoint `members_dir` holds, for --resume: the file
// checked whole and as a checkpoint of this sweep's batch integrator over these members as
// they are configured now (solvent::InputError naming the file and its damage, or what it is a
// checkpoint of: exit 4). Nothing where there is none.
std::optional<std::vector<std::size_t>> stopped_batch(const SweepPlan& plan,
                                                     const std::filesystem::path& members_dir);

// Why the sweep's batch integrator cannot be used at all (not installed, not an integrator),
// or nothing.
std::optional<std::string> batch_problem(const SweepPlan& plan);

// Runs the batchable members among those it is offered in batches, and the rest through
// `processes`.
class BatchedExecutor final : public MemberExecutor {
 public:
  // `stopped`: the members of a stopped batch to continue first (stopped_batch).
  BatchedExecutor(const SweepPlan& plan, std::filesystem::path members_dir,
                  MemberExecutor& processes,
                  std::optional<std::vector<std::size_t>> stopped = std::nullopt);
  std::vector<std::size_t> start(std::span<const std::size_t> candidates) override;
  std::vector<MemberEnd> poll(std::chrono::milliseconds wait) override;
  std::size_t running() const override { return processes_.running() + ended_.size(); }
  void signal(int sig) override { processes_.signal(sig); }

 private:
  // Runs one group as a batch, or continues the stopped one (`resume`); false (nothing
  // written) where it cannot be batched.
  bool run_batch(const std::vector<std::size_t>& group, bool resume);

  const SweepPlan& plan_;
  std::filesystem::path members_dir_;
  MemberExecutor& processes_;
  std::optional<std::vector<std::size_t>> stopped_;
  std::set<std::size_t> tried_;      // offered once: batched, or left to the processes
  std::deque<MemberEnd> ended_;      // batched members not yet reported by poll()
};

}  // namespace solvent
