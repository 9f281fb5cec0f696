#pragma once
// The adaptive IMEX loop of imex-ark23: Kennedy and Carpenter's additive Runge–Kutta pair
// ARK3(2)4L[2]SA (the default third-order ARK of SUNDIALS ARKODE), explicit on N, an
// L-stable ESDIRK on Lin, all implicit stages with the same S = I - h gamma Lin. The
// embedded second-order solution gives the local error, measured in a weighted RMS norm
// (rtol, atol); a PI controller picks the next step and a step whose error exceeds 1 (or
// whose stages are not finite, whose solve did not converge, or whose projection removed
// more than projection_limit) is taken again shorter. Every accepted step is reported; the
// steps land exactly on every multiple of dt, so output at those times is exact.
#include "src/imex_stepper.hpp"

namespace solvent::imex {

Schema ark_schema();

class ArkIntegrator : public ImexLoop {
 public:
  ArkIntegrator(const PluginContext& ctx, const char* name);
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;

  // The controller's settings (ark_schema's keys).
  struct Settings {
    bool adaptive;
    double dt;  // the interval between exact stops; adaptive = false: the step
    std::int64_t stops;
    double rtol, atol, first_dt, safety, max_growth, min_shrink;
    std::int64_t max_steps, checkpoint_every;
    bool projection;
    double projection_limit;
  };

 private:
  const char* name_;
  Settings set_;
};

}  // namespace solvent::imex
