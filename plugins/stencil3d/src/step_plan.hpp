#pragma once
// What both engines derive from a state before stepping: the views and constants.
#include <solvent_stencil3d/simulation_state.hpp>
#include <solvent_stencil3d/tip_phases.hpp>
#include "src/field_update.hpp"

namespace solvent::stencil3d {

inline VesselUptake vessel_uptake(const solvent::angiogenesis_3d::Parameters& p, double dt) {
  return {1.0 - dt * p.gamma, dt * p.beta, 1.0 - dt * p.eta};
}

// A TipView over arrays laid out like those of `s` (host or device copies).
inline TipView tip_view(const SimulationState& s, const double* f, const double* c,
                        std::int32_t* owner, std::int32_t* node, std::int64_t* birth,
                        std::int32_t* active, std::int32_t* segments, std::int32_t* vessel,
                        NetworkCounters* counters) {
  return {s.p,
          solvent::angiogenesis_3d::scheme_constants(s.p, s.dt),
          solvent::angiogenesis_3d::grid_of(s.p),
          s.window,
          s.block,
          s.dt,
          s.seed,
          f,
          c,
          owner,
          node,
          birth,
          active,
          segments,
          vessel,
          s.segment_capacity(),
          s.vessel_capacity(),
          counters};
}

}  // namespace solvent::stencil3d
