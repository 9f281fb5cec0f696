// imex-trapezoid: Crank–Nicolson on the linear part, forward Euler on the explicit part —
// the scheme of De Luca et al. (first order in time once the explicit term matters).
#include "src/imex_stepper.hpp"

namespace {
class ImexTrapezoid : public solvent::imex::ImexIntegrator {
 public:
  explicit ImexTrapezoid(const solvent::PluginContext& c)
      : ImexIntegrator(c, solvent::imex::ExplicitScheme::ForwardEuler, "imex-trapezoid") {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexTrapezoid>(
    "imex-trapezoid", "1.0.0",
    "IMEX: Crank-Nicolson on the linear part, forward Euler on the nonlinear part (De Luca et al.)",
    &solvent::imex::crank_nicolson_schema))
