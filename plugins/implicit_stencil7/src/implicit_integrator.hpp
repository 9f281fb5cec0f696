#pragma once
// implicit-stencil7: advances u_t + A u = g(t) (family stencil7-evolution/1) by
//   backward Euler:  (I/dt + A) u^{n+1} = u^n / dt + g^{n+1}
//   BDF2:            (3/(2 dt) I + A) u^{n+1} = (4 u^n - u^{n-1}) / (2 dt) + g^{n+1}
//                    (its first step backward Euler)
//   Crank-Nicolson:  (2/dt I + A) u^{n+1} = (2/dt I - A) u^n + g^n + g^{n+1}
// Each layer's system sigma I + A is a Stencil7, set up in the linear solver once per sigma
// (BDF2 sets up twice: its backward-Euler start and its own), and solved from the previous
// layer as the initial guess. Every layer's iterations and solve time are observables; their
// means are facts of the record. It writes checkpoints (the SDK's format, one file a rank)
// and continues from them under --resume.
#include <solvent/solvent.hpp>
#include <solvent_family_seven_point_grid/evolution.hpp>

#include <cstdint>

namespace solvent::implicit_stencil7 {

enum class Scheme { BackwardEuler, Bdf2, CrankNicolson };

Schema implicit_schema();

class ImplicitIntegrator : public Integrator {
 public:
  explicit ImplicitIntegrator(const PluginContext& ctx);
  bool accepts(Model& model, std::string& why) const override;
  std::optional<OperatorForm> system_form(Model& model) const override;
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;
  Facts facts() const override { return facts_; }
  bool writes_checkpoints() const override { return true; }
  std::optional<std::int64_t> checkpoint_step(const std::filesystem::path& dir) const override;

 private:
  Scheme scheme_;
  double dt_;
  std::int64_t steps_;
  bool warm_start_;
  std::int64_t checkpoint_every_;
  Facts facts_;
};

}  // namespace solvent::implicit_stencil7
