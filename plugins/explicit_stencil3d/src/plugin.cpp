#include "explicit_stencil3d.hpp"
#include "schema.hpp"

#include <solvent/plugin.hpp>

SOLVENT_PLUGIN(solvent::describe_integrator<stencil3d::ExplicitStencil3d>(
    "explicit-stencil3d", "1.0.0",
    "explicit 7-point stencil with discrete tip cells for angiogenesis-3d, CPU (OpenMP) or CUDA",
    &stencil3d::integrator_schema, "cpu|cuda"))
