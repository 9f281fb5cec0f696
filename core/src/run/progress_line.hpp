#pragma once
// Progress of a run (step, simulated time, rate, ETA) or of a sweep (members done and
// failed), as --progress chooses (ProgressMode): a bar, one line redrawn in place with
// carriage returns, for a terminal; or lines, a plain line every `every` seconds and the
// last, with no carriage returns, for a batch job's log.
#include "run/run_driver.hpp"

#include <solvent/observer.hpp>

#include <chrono>
#include <string_view>

namespace solvent {

class ProgressLine : public Observer {
 public:
  // stderr is asked whether it is a terminal where `mode` leaves that open.
  ProgressLine(ProgressMode mode, double every_seconds);
  ~ProgressLine() override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  // "  <unit> done/total  <detail>  <rate> <unit>s/s  elapsed ... ETA ...", at most every
  // 200 ms as a bar and every `every` seconds as lines, except for the last.
  void show(std::string_view unit, std::int64_t done, std::int64_t total, std::string_view detail);

 private:
  bool enabled_ = false, bar_ = false;
  bool drawn_ = false;
  std::chrono::duration<double> every_;
  std::int64_t first_done_ = -1;  // a resumed run starts past 0: its rate counts from there
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace solvent
