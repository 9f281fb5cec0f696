#include "src/implicit_integrator.hpp"

SOLVENT_PLUGIN(solvent::distributed(
    solvent::describe_integrator<solvent::implicit_stencil7::ImplicitIntegrator>(
        "implicit-stencil7", "1.0.0",
        "implicit time stepping of u_t + A u = g(t) on a seven-point grid: backward Euler, BDF2 "
        "or Crank-Nicolson, each layer's Stencil7 system solved by the linear solver from the "
        "previous layer",
        &solvent::implicit_stencil7::implicit_schema)))
