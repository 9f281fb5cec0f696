#pragma once
// ParaView-readable output: the fields as VTK image data (.vti, raw appended binary) and
// the vessel network as VTK polydata (.vtp, one line cell per segment).
#include "simulation_state.hpp"

#include <string>

namespace stencil3d {

std::string fields_vti(const SimulationState& s);
std::string network_vtp(const SimulationState& s);

}  // namespace stencil3d
