#include "cuda/phase_clock.hpp"

#include "cuda/kernels.hpp"

#include <cuda_runtime.h>

#include <cstdio>

namespace solvent::matm::cuda {

PhaseClock::~PhaseClock() {
  for (void* e : events_) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}

void PhaseClock::reset() {
  seconds_.fill(0.0);
  marks_.clear();
}

void PhaseClock::mark(Phase p) {
  if (marks_.size() == events_.size()) {
    cudaEvent_t e;
    check(cudaEventCreate(&e), "cudaEventCreate (phase clock)");
    events_.push_back(e);
  }
  void* e = events_[marks_.size()];
  check(cudaEventRecord(static_cast<cudaEvent_t>(e)), "cudaEventRecord (phase clock)");
  marks_.push_back({e, p});
}

void PhaseClock::collect() {
  if (marks_.empty()) return;
  for (std::size_t q = 0; q + 1 < marks_.size(); ++q) {
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(marks_[q].event),
                               static_cast<cudaEvent_t>(marks_[q + 1].event)),
          "cudaEventElapsedTime (phase clock)");
    seconds_[marks_[q].phase] += 1e-3 * ms;
  }
  // The last mark's event moves to the front of the pool, so that the next round's marks
  // take the others.
  std::swap(events_[0], events_[marks_.size() - 1]);
  const Mark last{events_[0], marks_.back().phase};
  marks_.assign(1, last);
}

const char* PhaseClock::name(Phase p) {
  switch (p) {
    case residual:
      return "residual";
    case exchange:
      return "ghost exchanges";
    case lower_sweep:
      return "lower sweep of r";
    case upper_sweep:
      return "upper sweep";
    case product:
      return "A0 w and its lower sweep";
    case lower_sweep_a1:
      return "lower sweep of A1 w";
    case host:
      return "sums and host";
    case phases:
      break;
  }
  return "?";
}

std::string PhaseClock::per_iteration(double iterations) const {
  // snprintf: nvcc cannot compile fmt's compile-time format checks.
  std::string s;
  char number[32];
  for (int p = 0; p < phases; ++p) {
    if (seconds_[p] <= 0.0) continue;
    std::snprintf(number, sizeof number, " %.4g", 1e3 * seconds_[p] / iterations);
    s += (s.empty() ? "" : ", ") + std::string(name(Phase(p))) + number;
  }
  return s;
}

}  // namespace solvent::matm::cuda
