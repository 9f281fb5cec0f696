#pragma once
// The checks on a state: the explicit step limit (the smallest over the grid and the
// uptake rates), and the physical ranges of the fields that are written.
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>

#include <string>

namespace solvent::stencil3d {

struct StabilityLimit {
  double dt;           // the largest dt for which every criterion holds
  std::string reason;  // which criterion sets it
};

// P0 >= 0 at every node (the tips' stay probability; it depends on c and f, so it is
// evaluated again whenever the state comes to the host), and k gamma n <= 1, k eta n <= 1
// (n = 1 on the vessel nodes of the hybrid mode, max n in the continuous one: the uptake
// keeps f between its start and beta / gamma and c in [0, 1]). `threads` as
// integrator.threads (0: OpenMP's default).
// Each rank evaluates its block and every rank returns the limit of the whole grid.
StabilityLimit stability_limit(const SimulationState& s, int threads,
                               const Communicator& comm = single_rank());

// Throws solvent::DivergenceError naming the step, the field and the node (i, j, k) of the
// first value of f, c or (continuous mode) n that is not finite or leaves its range: c in
// [0, 1], f >= 0 and, when gamma > 0, f <= max(f_amplitude, beta / gamma), n >= 0.
// Each rank checks its block, and every rank throws the same error: that of the value one
// process would have found first. Every rank calls it together. threads: as
// stability_limit's.
void check_fields(const SimulationState& s, int threads, const Communicator& comm = single_rank());

}  // namespace solvent::stencil3d
