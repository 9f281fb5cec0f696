#pragma once
// `solvent run FILE` and `solvent validate FILE` for a file with a [sweep] table: every
// member's configuration is resolved and checked before any member runs; the members then
// run (each in a process of its own: N at a time with --jobs N, spread over the ranks under
// mpirun), each into OUT/members/NNNN/ as a single run would write it; OUT/sweep.csv holds
// one row per member and OUT/record.toml records the sweep. `--resume OUT` runs again only
// the members whose directory holds no finished record.
#include "run/run_driver.hpp"
#include "sweep/sweep_plan.hpp"

namespace solvent {

struct SweepSummary {
  std::filesystem::path output_dir;
  std::string mode;
  std::size_t members = 0, ran = 0, failed = 0;
  std::vector<std::string> failures;  // "member 3: why", in member order
  std::vector<std::string> fixed;     // swept keys that a --set fixed
};

// Whether `options` describe a sweep: FILE has a [sweep] table, or the directory given to
// --resume holds a sweep's record. Decided by every rank together (a collective under
// mpirun): ranks that each read their own copy of FILE must all take the sweep's path or
// all the single run's. A FILE that cannot be read ends every rank with its location.
bool is_sweep(const RunOptions& options);

// Resolves every member's configuration and checks its plugins and their combination, as
// `solvent validate` checks one. Throws ConfigError listing each problem once, with the
// members it concerns. Returns a digest of the members' resolved configurations, which
// ranks compare to find one that read another copy of the file.
std::string check_members(const SweepPlan& plan);

// plan_sweep and check_members on every rank, agreed across the ranks: a problem on any
// rank ends them all with its message, and ranks whose members differ are refused.
SweepPlan agreed_sweep_plan(const Communicator& comm, const std::filesystem::path& file,
                            const std::vector<std::string>& overrides);

// The file and --set overrides that the sweep recorded in `dir` ran, the file unchanged
// since (its members would otherwise differ from those that ran): for --resume and
// `solvent verify`. `who` begins each message, `remedy` ends the one for a changed file.
std::pair<std::filesystem::path, std::vector<std::string>> recorded_sweep_source(
    const std::filesystem::path& dir, const std::string& who, const std::string& remedy);

// What a sweep's output directory holds, for `solvent status`.
struct SweepState {
  std::string mode;
  std::vector<std::string> keys;
  std::size_t members = 0, finished = 0, failed = 0;  // finished: a finished record
};
// Empty where `dir` holds no sweep's record.
std::optional<SweepState> inspect_sweep(const std::filesystem::path& dir);

// Runs the sweep; on ranks other than 0 the summary is empty. Throws Interrupted after a
// SIGINT or SIGTERM, once the members running have stopped and the results are written.
SweepSummary run_sweep(const RunOptions& options, std::size_t jobs);

}  // namespace solvent
