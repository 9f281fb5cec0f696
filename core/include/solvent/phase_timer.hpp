#pragma once
// Wall time per named phase (assembly, nonlinear term, solve, output), summed over a run
// and written to the run record.
#include <chrono>
#include <map>
#include <string>

namespace solvent {

class PhaseTimer {
 public:
  class Scope {
   public:
    Scope(PhaseTimer& t, std::string phase)
        : timer_(t), phase_(std::move(phase)), start_(std::chrono::steady_clock::now()) {}
    ~Scope() {
      timer_.add(phase_,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimer& timer_;
    std::string phase_;
    std::chrono::steady_clock::time_point start_;
  };

  Scope measure(std::string phase) { return Scope(*this, std::move(phase)); }
  void add(const std::string& phase, double seconds) { seconds_[phase] += seconds; }
  const std::map<std::string, double>& seconds() const { return seconds_; }

 private:
  std::map<std::string, double> seconds_;
};

}  // namespace solvent
