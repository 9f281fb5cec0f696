#pragma once
// A PNG picture of the vessel network projected onto the x-y plane (the tumour on the
// right), vessels shaded by depth z over the TAF concentration of the mid-z plane.
#include <solvent_stencil3d/simulation_state.hpp>

#include <string>

namespace solvent::stencil3d {

std::string network_png(const SimulationState& s);

}  // namespace solvent::stencil3d
