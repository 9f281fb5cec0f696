#pragma once
// ParaView-readable output: the fields as VTK image data (.vti, raw appended binary) and
// the vessel network as VTK polydata (.vtp, one line cell per segment).
#include <solvent_stencil3d/simulation_state.hpp>

#include <string>

namespace solvent::stencil3d {

std::string fields_vti(const SimulationState& s);
std::string network_vtp(const SimulationState& s);

}  // namespace solvent::stencil3d
