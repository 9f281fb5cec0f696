#include "progress_line.hpp"

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
  if (!enabled_ || info.total_steps <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  const bool last = info.step == info.total_steps;
  if (!last && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const double eta =
      info.step > 0 ? elapsed * double(info.total_steps - info.step) / double(info.step) : 0.0;
  std::fputs(fmt::format("\r  step {}/{}  t = {:.6g}  elapsed {:.1f} s  ETA {:.1f} s   ", info.step,
                         info.total_steps, info.t, elapsed, eta)
                 .c_str(),
             stderr);
  drawn_ = true;
}

}  // namespace solvent
