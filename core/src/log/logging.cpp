#include "log/logging.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <algorithm>

namespace solvent {

namespace {

// Messages kept until the first log file opens: what a run says before its folder exists
// (its configuration's warnings, its plugins' notes). A run says far fewer.
constexpr std::size_t early_messages = 2000;

struct Logging {
  std::shared_ptr<spdlog::sinks::stderr_color_sink_mt> terminal =
      std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> early =
      std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(early_messages);
  std::shared_ptr<spdlog::logger> logger =
      std::make_shared<spdlog::logger>("solvent", spdlog::sinks_init_list{terminal, early});
  spdlog::level::level_enum level = spdlog::level::info;
  Logging() {
    terminal->set_pattern("%^[%l]%$ %v");
    terminal->set_level(level);
    early->set_level(file_level());
    pass_what_sinks_keep();
  }
  // A file keeps info and above, and whatever more the user asked to see.
  spdlog::level::level_enum file_level() const { return std::min(level, spdlog::level::info); }
  // The logger passes on what the most talkative of its sinks keeps.
  void pass_what_sinks_keep() {
    auto least = spdlog::level::off;
    for (const auto& s : logger->sinks()) least = std::min(least, s->level());
    logger->set_level(least);
  }
};

Logging& logging() {
  static Logging state;
  return state;
}

std::unique_ptr<spdlog::formatter> timed_format(int rank, bool colour) {
  return std::make_unique<spdlog::pattern_formatter>(
      fmt::format("%Y-%m-%dT%H:%M:%S.%eZ rank {} {}", rank, colour ? "%^[%l]%$ %v" : "[%l] %v"),
      spdlog::pattern_time_type::utc);
}

}  // namespace

std::shared_ptr<spdlog::logger> core_logger() { return logging().logger; }

void set_log_level(spdlog::level::level_enum level) {
  auto& l = logging();
  l.level = level;
  l.terminal->set_level(level);
  for (const auto& s : l.logger->sinks())
    if (s != l.terminal) s->set_level(l.file_level());
  l.pass_what_sinks_keep();
}

spdlog::level::level_enum log_level() { return logging().level; }

void quiet_terminal(spdlog::level::level_enum level) {
  auto& l = logging();
  l.terminal->set_level(std::max(level, l.level));
  l.pass_what_sinks_keep();
}

void timestamp_terminal(int rank) { logging().terminal->set_formatter(timed_format(rank, true)); }

LogFile::LogFile(const std::filesystem::path& file, int rank, bool append) {
  auto& l = logging();
  try {
    sink_ = std::make_shared<spdlog::sinks::basic_file_sink_mt>(file.string(), !append);
  } catch (const spdlog::spdlog_ex& e) {
    throw Error(fmt::format("{}: the run's log cannot be written: {}", file.string(), e.what()));
  }
  sink_->set_formatter(timed_format(rank, false));
  sink_->set_level(l.file_level());
  auto& sinks = l.logger->sinks();
  if (std::find(sinks.begin(), sinks.end(), l.early) != sinks.end())
    for (const auto& m : l.early->last_raw())
      if (sink_->should_log(m.level)) sink_->log(m);
  sinks.push_back(sink_);
  l.pass_what_sinks_keep();
}

void end_early_messages() {
  auto& l = logging();
  auto& sinks = l.logger->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), l.early), sinks.end());
  l.pass_what_sinks_keep();
}

LogFile::~LogFile() {
  auto& l = logging();
  sink_->flush();
  auto& sinks = l.logger->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  l.pass_what_sinks_keep();
}

}  // namespace solvent
