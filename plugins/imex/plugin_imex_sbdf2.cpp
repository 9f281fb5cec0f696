// imex-sbdf2: second-order semi-implicit BDF (Ascher, Ruuth and Wetton): BDF2 on the linear
// part, extrapolated Adams–Bashforth on the rest. L-stable on the linear part, so the stiff
// modes of a rough initial state decay instead of ringing as under Crank–Nicolson.
#include "src/imex_stepper.hpp"

namespace {
class ImexSbdf2 : public solvent::imex::ImexIntegrator {
 public:
  explicit ImexSbdf2(const solvent::PluginContext& c)
      : ImexIntegrator(c, solvent::imex::ExplicitScheme::Sbdf2, "imex-sbdf2") {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexSbdf2>(
    "imex-sbdf2", "1.0.0",
    "IMEX: BDF2 on the linear part, extrapolated Adams-Bashforth on the nonlinear part (second "
    "order, L-stable; first step backward Euler)",
    &solvent::imex::stepper_schema))
