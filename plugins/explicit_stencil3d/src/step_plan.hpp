#pragma once
// What both engines derive from a state before stepping: the views and constants.
#include "field_update.hpp"
#include "simulation_state.hpp"
#include "tip_phases.hpp"

namespace stencil3d {

inline VesselUptake vessel_uptake(const angiogenesis3d::Parameters& p, double dt) {
  return {1.0 - dt * p.gamma, dt * p.beta, 1.0 - dt * p.eta};
}

// A TipView over arrays laid out like those of `s` (host or device copies).
inline TipView tip_view(const SimulationState& s, const double* f, const double* c,
                        std::int32_t* owner, std::int32_t* node, std::int64_t* birth,
                        std::int32_t* active, std::int32_t* segments, std::int32_t* vessel,
                        NetworkCounters* counters) {
  return {s.p,      angiogenesis3d::scheme_constants(s.p, s.dt), angiogenesis3d::grid_of(s.p),
          s.dt,     s.seed,
          f,        c,
          owner,    node,
          birth,    active,
          segments, vessel,
          s.segment_capacity(), s.vessel_capacity(),
          counters};
}

}  // namespace stencil3d
