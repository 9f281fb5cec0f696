// imex-ark23: adaptive IMEX steps, Kennedy and Carpenter's ARK3(2)4L[2]SA (third order, an
// embedded second-order error estimate, L-stable on the linear part) with a PI controller.
#include "src/ark_stepper.hpp"

namespace {
class ImexArk23 : public solvent::imex::ArkIntegrator {
 public:
  explicit ImexArk23(const solvent::PluginContext& c) : ArkIntegrator(c, "imex-ark23") {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexArk23>(
    "imex-ark23", "1.0.0",
    "IMEX, adaptive: additive Runge-Kutta ARK3(2)4L[2]SA (explicit on the nonlinear part, "
    "L-stable ESDIRK on the linear part), embedded error estimate, PI step controller",
    &solvent::imex::ark_schema))
