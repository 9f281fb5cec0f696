#include "schema_explicit_stencil3d.hpp"
#include "src/explicit_stencil3d.hpp"

#include <solvent/plugin.hpp>

SOLVENT_PLUGIN(
    solvent::distributed(solvent::describe_integrator<solvent::stencil3d::ExplicitStencil3d>(
        "explicit-stencil3d", "1.0.0",
        "discrete tip cells moved by the 7-point stencil coefficients, for angiogenesis-3d, CPU or "
        "CUDA",
        &solvent::stencil3d::integrator_schema, "any")))
