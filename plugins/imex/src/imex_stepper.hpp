#pragma once
// The IMEX loop: Crank–Nicolson on the linear part, an explicit scheme on the rest,
//   (I - dt/2 Lin) u^{n+1} = (I + dt/2 Lin) u^n + dt E^n,
// E^n = N(u^n, t^n) for the trapezoid scheme (forward Euler, De Luca et al.), or
// E^n = 3/2 N^n - 1/2 N^{n-1} for CNAB2 (second order; its first step is a trapezoid step);
// optionally started by Rannacher's backward-Euler half steps. SBDF2 instead:
//   (3 u^{n+1} - 4 u^n + u^{n-1}) / (2 dt) = Lin u^{n+1} + 2 N^n - N^{n-1},
// L-stable on the linear part, second order, started by one IMEX backward-Euler step.
#include <solvent/solvent.hpp>

namespace solvent::imex {

enum class ExplicitScheme { ForwardEuler, AdamsBashforth2, Sbdf2 };

Schema common_schema();          // dt, steps, projection: every IMEX integrator
Schema stepper_schema();         // adds checkpoint_every: the integrators of ImexIntegrator
Schema crank_nicolson_schema();  // adds rannacher_steps: the two Crank–Nicolson integrators

// What every IMEX step loop of this package shares: it advances an IMEX model, hands its
// solver S as CSR, writes checkpoint.bin (src/checkpoint.hpp) and continues from it.
class ImexLoop : public Integrator {
 public:
  bool accepts(Model& model, std::string& why) const override;
  std::optional<OperatorForm> system_form(Model& model) const override;
  Facts facts() const override { return facts_; }
  bool writes_checkpoints() const override { return true; }
  std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& dir) const override;

 protected:
  Facts facts_;
};

class ImexIntegrator : public ImexLoop {
 public:
  ImexIntegrator(const PluginContext& ctx, ExplicitScheme scheme, const char* name);
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;

 private:
  ExplicitScheme scheme_;
  const char* name_;
  double dt_;
  std::int64_t steps_;
  std::int64_t checkpoint_every_;
  std::int64_t rannacher_steps_;
  bool projection_;
  double projection_limit_;
};

}  // namespace solvent::imex
