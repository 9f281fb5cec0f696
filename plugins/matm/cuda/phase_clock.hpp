#pragma once
// Where a matm-cuda solve's device time goes: CUDA events marked on the stream between the
// phases of the iteration, each interval added to the phase that began it. A mark costs one
// event record (no wait); the intervals are read after a copy that has already waited for
// them (the sums of each step), so timing adds no synchronisation. Over ranks a sweep's time
// includes its waits for the neighbours' values, and the host's share (the sums over the
// ranks, the step's parameters, the launches of the next phase) is the interval from the
// mark before a copy of sums to the next phase's mark. No CUDA header here (events as void*).
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace solvent::matm::cuda {

class PhaseClock {
 public:
  enum Phase {
    residual,
    exchange,
    lower_sweep,
    upper_sweep,
    product,
    lower_sweep_a1,
    host,
    phases
  };

  PhaseClock() = default;
  ~PhaseClock();
  PhaseClock(const PhaseClock&) = delete;
  PhaseClock& operator=(const PhaseClock&) = delete;

  // Clears the totals; the next mark starts the first interval.
  void reset();
  // Ends the phase in progress (if any) and begins p, both at this point of the stream.
  void mark(Phase p);
  // Adds the intervals between the marks so far; the stream must have passed the last mark
  // (after a synchronous copy). The last mark stays, as the start of the next interval.
  void collect();
  static const char* name(Phase p);
  // "residual 1.234, ..." in ms per iteration, the phases that took time.
  std::string per_iteration(double iterations) const;

 private:
  struct Mark {
    void* event;  // cudaEvent_t
    Phase phase;
  };
  std::vector<void*> events_;  // created once, reused
  std::vector<Mark> marks_;
  std::array<double, phases> seconds_{};
};

}  // namespace solvent::matm::cuda
