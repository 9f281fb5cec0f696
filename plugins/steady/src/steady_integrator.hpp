#pragma once
// steady: one linear solve A x = b of a LinearProblem model. A solve that does not
// converge is not a solution: its iterate is written as unconverged_iterate.csv and the
// run fails with the solver's status and last residual.
#include <solvent/solvent.hpp>

namespace solvent::steady {

class SteadyIntegrator : public Integrator {
 public:
  explicit SteadyIntegrator(const PluginContext& ctx);
  bool accepts(Model& model, std::string& why) const override;
  std::optional<OperatorForm> system_form(Model& model) const override;
  RunResult run(Model& model, LinearSolver* solver, RunContext& ctx) override;
};

}  // namespace solvent::steady
