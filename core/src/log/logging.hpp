#pragma once
// The one logger of a process: messages to stderr; plugins receive it in their context. A
// run adds its log files (LogFile), which keep every message at info or above (more where
// the terminal shows more) with the UTC time and the rank, whatever stderr shows; messages
// from before the run's folder was known are kept in memory and written first.
#include <spdlog/logger.h>

#include <filesystem>
#include <memory>

namespace solvent {

std::shared_ptr<spdlog::logger> core_logger();

// The user's level (--log-level, -v, -q, SOLVENT_LOG_LEVEL): the least severe messages that
// stderr shows; a log file keeps these too where they are below info.
void set_log_level(spdlog::level::level_enum level);
spdlog::level::level_enum log_level();
// Raises what this process shows on stderr alone (a rank other than 0, which says only what
// fails on it); its log files keep what they kept.
void quiet_terminal(spdlog::level::level_enum level);
// The UTC time and `rank` before each line on stderr too (--log-timestamps).
void timestamp_terminal(int rank);

// A log file of a run, written while the object lives; opened for appending (a resumed
// run) or anew, it begins with the messages kept from before, until end_early_messages().
// Throws Error naming the file where it cannot be opened.
class LogFile {
 public:
  LogFile(const std::filesystem::path& file, int rank, bool append);
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

 private:
  std::shared_ptr<spdlog::sinks::sink> sink_;
};

// The messages before the run's log files opened belong to those files alone: a later run
// of the process (a batched sweep member, a Python script's next run) starts its own.
void end_early_messages();

}  // namespace solvent
