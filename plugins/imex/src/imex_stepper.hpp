#pragma once
// The IMEX loop: Crank–Nicolson on the linear part, an explicit scheme on the rest,
//   (I - dt/2 Lin) u^{n+1} = (I + dt/2 Lin) u^n + dt E^n,
// E^n = N(u^n, t^n) for the trapezoid scheme (forward Euler, De Luca et al.), or
// E^n = 3/2 N^n - 1/2 N^{n-1} for CNAB2 (second order; its first step is a trapezoid step).
#include <solvent/solvent.hpp>

namespace solvent::imex {

enum class ExplicitScheme { ForwardEuler, AdamsBashforth2 };

Schema common_schema();

class ImexIntegrator : public Integrator {
 public:
  ImexIntegrator(const PluginContext& ctx, ExplicitScheme scheme, const char* name);
  bool accepts(Model& model, std::string& why) const override;
  std::optional<OperatorForm> system_form(Model& model) const override;
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;
  Facts facts() const override { return facts_; }

 private:
  ExplicitScheme scheme_;
  const char* name_;
  double dt_;
  std::int64_t steps_;
  bool projection_;
  Facts facts_;
};

}  // namespace solvent::imex
