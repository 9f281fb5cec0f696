#pragma once
#include <solvent/parameters.hpp>

namespace solvent::stencil3d {

// Every key of [integrator] for "explicit-stencil3d".
solvent::Schema integrator_schema();

}  // namespace solvent::stencil3d
