#pragma once
// How the members of a sweep are run: each member is one `solvent run` of the sweep's file
// with `--sweep-member N`, in a process of its own, so that a member that crashes or
// aborts ends alone and the sweep goes on. The member writes its own run directory (config,
// record, outputs) exactly as a single run does; its record is what the sweep reads.
//
// The hook for a batched executor: start() is offered every member still to run and takes
// those it will run now. A MemberExecutor that advances several members in one process
// takes a group of them (those that share the model's size, dt and steps), writes each
// member's directory as its single run would (config.toml, record.toml with [result]
// final_observables, the outputs) and reports each member's end from poll(). The runner
// (sweep_runner.cpp) needs nothing else: it decides what still has to run from the
// directories, and forms sweep.csv from their records.
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <sys/types.h>

namespace solvent {

// How a member's process ended, as its executor saw it.
struct MemberEnd {
  std::size_t index = 0;
  int exit_code = 0;   // the process's exit status, or 128 + the signal that ended it
  double wall = 0.0;   // seconds from start to end
};

class MemberExecutor {
 public:
  virtual ~MemberExecutor() = default;
  // Starts members of `candidates` (the members still to run, in order) as it has room for;
  // returns those it started (none when it is full).
  virtual std::vector<std::size_t> start(std::span<const std::size_t> candidates) = 0;
  // The members that ended since the last call, waiting up to `wait` for the first (all of
  // it when none runs).
  virtual std::vector<MemberEnd> poll(std::chrono::milliseconds wait) = 0;
  virtual std::size_t running() const = 0;
  // Passes a signal (SIGINT, SIGTERM) on to every running member.
  virtual void signal(int sig) = 0;
};

// What a member process is given: the sweep's file and --set overrides (the members are
// formed from them again, identically), and the folder under which member N writes NNNN/
// (its output, printed to NNNN.log beside it). In a resumed sweep, a member whose folder
// holds a checkpoint continues from it (--resume) instead of starting over.
struct MemberCommand {
  std::filesystem::path file;
  std::vector<std::string> overrides;
  std::filesystem::path members_dir;
  bool resume = false;
};

// Member i's run directory and log.
std::filesystem::path member_dir(const std::filesystem::path& members_dir, std::size_t member);
std::filesystem::path member_log(const std::filesystem::path& members_dir, std::size_t member);

// Up to `slots` member processes at once (posix_spawn of this same program).
class ProcessExecutor final : public MemberExecutor {
 public:
  ProcessExecutor(MemberCommand command, std::size_t slots);
  ~ProcessExecutor() override;
  ProcessExecutor(const ProcessExecutor&) = delete;
  ProcessExecutor& operator=(const ProcessExecutor&) = delete;
  std::vector<std::size_t> start(std::span<const std::size_t> candidates) override;
  std::vector<MemberEnd> poll(std::chrono::milliseconds wait) override;
  std::size_t running() const override { return running_.size(); }
  void signal(int sig) override;

 private:
  struct Running {
    pid_t pid;
    std::size_t member;
    std::chrono::steady_clock::time_point started;
  };
  void spawn(std::size_t member);
  MemberCommand command_;
  bool signalled_ = false;  // a signal passed on to the members
  std::size_t slots_;
  std::vector<Running> running_;
};

// In a member process: end with the sweep's process (a member never outlives its sweep, so a
// resumed sweep never meets one still writing).
void end_with_parent();

}  // namespace solvent
