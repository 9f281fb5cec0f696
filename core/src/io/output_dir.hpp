#pragma once
// Output directories: what one holds (for `solvent status` and `--resume`), and preparing one
// for a run. Solvent writes only into a directory that is new, empty, or marked as its own,
// never over the configuration it reads, and never over an earlier run unless told to;
// --overwrite then removes exactly the files the earlier run listed in its record. A run
// holds an exclusive lock (flock) on its directory while it lives, so a second run into the
// same directory is refused, and a record that still says "running" with nobody holding
// the lock is a run that stopped unfinished (killed, crashed, power lost).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace solvent {

struct OutputDirState {
  bool exists = false;
  bool empty = true;
  bool ours = false;        // marked by Solvent, or holding a Solvent record
  bool has_record = false;  // record.toml, readable
  bool in_use = false;      // a live process holds the directory's lock
  std::string name, model, integrator;
  std::string status;   // as recorded: running, completed, failed, interrupted
  std::string message;  // the recorded reason, for failed and interrupted runs
  std::int64_t steps = 0;
  double t = 0.0;
  std::int64_t pid = 0;
  std::string config_sha256;
  std::vector<std::string> files;  // [output] files, relative to the directory
  // The last step whose observables row was written completely, where one was.
  std::int64_t last_row_step = -1;
};

OutputDirState inspect_output_dir(const std::filesystem::path& dir);

// An exclusive lock on a directory for as long as the object lives.
class OutputDirLock {
 public:
  explicit OutputDirLock(const std::filesystem::path& dir);  // throws Error if held
  ~OutputDirLock();
  OutputDirLock(OutputDirLock&& other) noexcept;
  OutputDirLock(const OutputDirLock&) = delete;
  OutputDirLock& operator=(const OutputDirLock&) = delete;
  OutputDirLock& operator=(OutputDirLock&&) = delete;

 private:
  int fd_ = -1;
};

struct OutputDirRequest {
  bool resume = false;
  bool overwrite = false;
  std::filesystem::path config;  // the configuration being read, never to be replaced
};

// Checks `dir` against the rules above and makes it ready (created, marked, an earlier run
// removed with --overwrite); returns the run's lock. Throws ConfigError (exit 2) for a
// directory Solvent may not write into, Error for one that another run holds.
OutputDirLock prepare_output_dir(const std::filesystem::path& dir, const OutputDirRequest& request);

}  // namespace solvent
