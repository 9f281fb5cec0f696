#include "src/steady_integrator.hpp"

namespace {
solvent::Schema schema() { return {}; }
}  // namespace

SOLVENT_PLUGIN(solvent::distributed(solvent::describe_integrator<solvent::steady::SteadyIntegrator>(
    "steady", "1.0.0", "One linear solve A x = b of a linear-problem model", &schema)))
