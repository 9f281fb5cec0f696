#include "run/progress_line.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace solvent {

ProgressLine::ProgressLine(bool enabled)
    : enabled_(enabled), start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

ProgressLine::~ProgressLine() {
  if (drawn_) std::fputs("\n", stderr);
}

void ProgressLine::on_step(const StepInfo& info, std::span<const double>,
                           std::span<const Observable>) {
  if (enabled_) show("step", info.step, info.total_steps, fmt::format("t = {:.6g}", info.t));
}

void ProgressLine::show(std::string_view unit, std::int64_t done, std::int64_t total,
                        std::string_view detail) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (done != total && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta = done > 0 ? elapsed * double(total - done) / double(done) : 0.0;
  std::fputs(fmt::format("\r  {} {}/{}  {}  elapsed {:.1f} s  ETA {:.1f} s   ", unit, done, total,
                         detail, elapsed, eta)
                 .c_str(),
             stderr);
  drawn_ = true;
}

}  // namespace solvent
