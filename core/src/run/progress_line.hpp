#pragma once
// A one-line progress display (step, simulated time, ETA; or the members of a sweep). On a
// terminal one line is redrawn; asked for when stderr is not a terminal (a batch job's
// log), it writes a plain line every 10 s and the last, with no carriage returns.
#include <solvent/observer.hpp>

#include <chrono>
#include <string_view>

namespace solvent {

class ProgressLine : public Observer {
 public:
  ProgressLine(bool enabled, bool terminal);
  ~ProgressLine() override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  // "  <unit> done/total  <detail>  elapsed ... ETA ...", at most every 200 ms on a
  // terminal and every 10 s elsewhere, except for the last.
  void show(std::string_view unit, std::int64_t done, std::int64_t total, std::string_view detail);

 private:
  bool enabled_, terminal_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace solvent
