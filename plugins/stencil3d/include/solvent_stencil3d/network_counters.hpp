#pragma once
// Running totals of the vessel network and of the tips' movement probabilities, kept next to the tips (on the device for CUDA) and
// copied to the host once per step for the observables.
#include <cstdint>

namespace solvent::stencil3d {

struct NetworkCounters {
  std::int32_t tips;    // tip slots in use (initial + branched); slot = sprout id
  std::int32_t active;  // tips still moving (not fused)
  std::int32_t branches;
  std::int32_t anastomoses;
  std::int32_t segments;      // vessel segments, each one grid step long
  std::int32_t vessel_nodes;  // distinct nodes on the network
  std::int32_t furthest_i;    // largest x index any tip has reached
  std::int32_t overflow;      // nonzero once the segment or vessel-node store was full
  // Movement probabilities evaluated so far (7 per active tip and step) and how many of
  // them lay outside [0, 1]: the integrator stops a run whose share grows too large.
  std::int64_t probabilities;
  std::int64_t bad_probabilities;
};

}  // namespace solvent::stencil3d
