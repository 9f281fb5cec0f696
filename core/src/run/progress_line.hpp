#pragma once
// A one-line progress display (step, simulated time, ETA; or the members of a sweep) on a
// terminal; silent when stderr is not a terminal, so logs and pipes stay clean.
#include <solvent/observer.hpp>

#include <chrono>
#include <string_view>

namespace solvent {

class ProgressLine : public Observer {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine() override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  // "  <unit> done/total  <detail>  elapsed ... ETA ...", redrawn at most every 200 ms
  // except for the last.
  void show(std::string_view unit, std::int64_t done, std::int64_t total, std::string_view detail);

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace solvent
