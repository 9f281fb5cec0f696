#pragma once
// The explicit step limit of a state: the smallest per-node limit over the grid.
#include <solvent_stencil3d/simulation_state.hpp>

#include <string>

namespace solvent::stencil3d {

struct StabilityLimit {
  double dt;           // the largest stable dt
  std::string reason;  // which condition sets it
};

StabilityLimit stability_limit(const SimulationState& s);

}  // namespace solvent::stencil3d
