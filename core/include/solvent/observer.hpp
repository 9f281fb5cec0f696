#pragma once
// Observer: receives what an integrator produces. The core's observer writes CSV
// profiles and observables and drives the progress line; integrators never format output.
#include <solvent/linear_solver.hpp>
#include <solvent/model.hpp>

#include <cstdint>
#include <span>

namespace solvent {

struct StepInfo {
  std::int64_t step = 0;  // 0 is the initial state
  std::int64_t total_steps = 0;
  double t = 0.0;
  double dt = 0.0;
};

class Observer {
 public:
  virtual ~Observer() = default;
  virtual void on_start(const FieldLayout& /*layout*/) {}
  // Called for every step; u is the state in the model's layout.
  virtual void on_step(const StepInfo& /*info*/, std::span<const double> /*u*/,
                       std::span<const Observable> /*observables*/) {}
  // A steady solve's result (already checked for convergence by the integrator).
  virtual void on_solution(const Vector& /*x*/, const SolveStats& /*stats*/,
                           std::span<const Observable> /*observables*/) {}
};

}  // namespace solvent
