#pragma once
// What both engines derive from a state before stepping besides the tip view (tip_view,
// tip_phases.hpp): the constants of the uptake.
#include <solvent_stencil3d/tip_phases.hpp>
#include "src/field_update.hpp"

namespace solvent::stencil3d {

inline VesselUptake vessel_uptake(const solvent::angiogenesis_3d::Parameters& p, double dt) {
  return {1.0 - dt * p.gamma, dt * p.beta, 1.0 - dt * p.eta};
}

}  // namespace solvent::stencil3d
