#include "run/progress_line.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>

namespace solvent {

ProgressLine::ProgressLine(ProgressMode mode, double every_seconds)
    : every_(every_seconds), start_(std::chrono::steady_clock::now()), last_draw_(start_) {
  const bool terminal = isatty(fileno(stderr)) != 0;
  enabled_ = mode == ProgressMode::Bar || mode == ProgressMode::Lines ||
             mode == ProgressMode::Always || (mode == ProgressMode::Auto && terminal);
  bar_ = mode == ProgressMode::Bar || (mode != ProgressMode::Lines && terminal);
  if (bar_) every_ = std::chrono::milliseconds(200);
}

ProgressLine::~ProgressLine() {
  if (drawn_ && bar_) std::fputs("\n", stderr);
}

void ProgressLine::on_step(const StepInfo& info, std::span<const double>,
                           std::span<const Observable>) {
  if (enabled_) show("step", info.step, info.total_steps, fmt::format("t = {:.6g}", info.t));
}

void ProgressLine::show(std::string_view unit, std::int64_t done, std::int64_t total,
                        std::string_view detail) {
  if (!enabled_ || total <= 0) return;
  if (first_done_ < 0) first_done_ = done;
  const auto now = std::chrono::steady_clock::now();
  if (done != total && now - last_draw_ < every_) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double rate = elapsed > 0 ? double(done - first_done_) / elapsed : 0.0;
  const std::string eta =
      rate > 0 ? fmt::format("{:.1f} s", double(total - done) / rate) : std::string("unknown");
  const auto line = fmt::format("  {} {}/{}  {}  {:.3g} {}s/s  elapsed {:.1f} s  ETA {}", unit,
                                done, total, detail, rate, unit, elapsed, eta);
  // A log keeps every line, so each ends with a newline instead of being drawn over.
  std::fputs(bar_ ? ("\r" + line + "   ").c_str() : (line + "\n").c_str(), stderr);
  drawn_ = true;
}

}  // namespace solvent
