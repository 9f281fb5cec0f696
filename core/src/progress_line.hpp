#pragma once
// A one-line progress display (step, simulated time, ETA) on a terminal; silent when
// stderr is not a terminal, so logs and pipes stay clean.
#include <solvent/observer.hpp>

#include <chrono>

namespace solvent {

class ProgressLine : public Observer {
 public:
  explicit ProgressLine(bool enabled);
  ~ProgressLine() override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;

 private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace solvent
