#include "run/progress_line.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace solvent {

ProgressLine::ProgressLine(bool enabled, bool terminal)
    : enabled_(enabled),
      terminal_(terminal),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressLine::~ProgressLine() {
  if (drawn_ && terminal_) std::fputs("\n", stderr);
}

void ProgressLine::on_step(const StepInfo& info, std::span<const double>,
                           std::span<const Observable>) {
  if (enabled_) show("step", info.step, info.total_steps, fmt::format("t = {:.6g}", info.t));
}

void ProgressLine::show(std::string_view unit, std::int64_t done, std::int64_t total,
                        std::string_view detail) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  const auto every = terminal_ ? std::chrono::milliseconds(200) : std::chrono::seconds(10);
  if (done != total && now - last_draw_ < every) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = done > 0 ? elapsed * double(total - done) / double(done) : 0.0;
  const auto line = fmt::format("  {} {}/{}  {}  elapsed {:.1f} s  ETA {:.1f} s", unit, done,
                                total, detail, elapsed, eta);
  // A log keeps every line, so each ends with a newline instead of being drawn over.
  std::fputs(terminal_ ? ("\r" + line + "   ").c_str() : (line + "\n").c_str(), stderr);
  drawn_ = true;
}

}  // namespace solvent
