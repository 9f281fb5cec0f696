#pragma once
// The core's guard on every time stepper: each state an integrator reports is checked finite
// and inside the ranges its model declares (ImexProblem::ranges) before anything records it,
// so no run ends "completed" with a non-finite or unphysical field. A failure is a
// DivergenceError (exit 6) naming the step, time, field and point; the output up to the step
// before stays.
#include <solvent/observer.hpp>

namespace solvent {

class StateGuard : public Observer {
 public:
  StateGuard(Model& model, Observer& next) : model_(model), next_(next) {}
  void on_start(const FieldLayout& layout) override;
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> observables) override;
  void on_solution(const Vector& x, const SolveStats& stats,
                   std::span<const Observable> observables) override {
    next_.on_solution(x, stats, observables);
  }

 private:
  Model& model_;
  Observer& next_;
  FieldLayout layout_;
  std::vector<Range> ranges_;
};

}  // namespace solvent
