// imex-cnab2: Crank–Nicolson on the linear part, second-order Adams–Bashforth on the
// explicit part (started by one trapezoid step): second order in time.
#include "src/imex_stepper.hpp"

namespace {
class ImexCnab2 : public solvent::imex::ImexIntegrator {
 public:
  explicit ImexCnab2(const solvent::PluginContext& c)
      : ImexIntegrator(c, solvent::imex::ExplicitScheme::AdamsBashforth2, "imex-cnab2") {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexCnab2>(
    "imex-cnab2", "1.0.0",
    "IMEX: Crank-Nicolson on the linear part, Adams-Bashforth 2 on the nonlinear part (second "
    "order)",
    &solvent::imex::crank_nicolson_schema))
