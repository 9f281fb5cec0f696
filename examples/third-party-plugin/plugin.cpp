// The plugin's one exported symbol: its descriptor. The schema below is all the core needs
// to validate [linear_solver] keys, fill in defaults and print `solvent describe acme-jacobi`.
#include "jacobi_solver.hpp"

namespace {
solvent::Schema schema() {
  using solvent::ParamSpec;
  return {
      ParamSpec::real("tolerance", 1e-10, "Stop when ||b - A x|| / ||b|| falls to this").above(0.0),
      ParamSpec::integer("max_iterations", 10000,
                         "Give up (converged = false) after this many sweeps")
          .at_least(1),
      ParamSpec::real("weight", 1.0, "Damping w of x <- x + w D^-1 (b - A x); 1 is plain Jacobi")
          .above(0.0)
          .at_most(1.0),
  };
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<acme::JacobiSolver>(
    "acme-jacobi", "1.0.0",
    "Weighted Jacobi iteration on CSR matrices, any storage through the core's conversion (an "
    "out-of-tree example plugin)", &schema))
