#pragma once
// explicit-stencil3d over several ranks (docs/architecture.md, "The hybrid stencil over
// ranks"): every rank holds the tips and the network whole and f, c, owner on its window;
// the ranks share the tips' decisions each step, and rank 0 gathers the blocks for output.
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <cstdint>
#include <optional>

namespace solvent::stencil3d {

// Rank r's block of the grid.
Box block_box(const GridBlocks& blocks, int rank);
// Rank r's window: its block and the nodes within `depth` of it (clipped to the grid).
Box window_box(const GridBlocks& blocks, int rank, int depth);

// Every rank calls it with its part: rank 0 receives every rank's block of f, c and owner
// and returns the whole state (tips and network from its own part, the same on every
// rank); the others send theirs and return nothing.
std::optional<SimulationState> gather_whole(const SimulationState& part, const GridBlocks& blocks,
                                            const Communicator& comm);

// Every rank has decided the tips on its block (the target, met and site of the others
// are -1) and counted `bad` probabilities among them. Afterwards every rank holds the
// decisions of all `tips`; returns the sum of the counts.
std::int32_t share_decisions(const Communicator& comm, std::int32_t tips, std::int32_t* target,
                             std::int32_t* met, std::int32_t* site, std::int32_t bad);

// The segments whose two nodes lie in different blocks: tips that crossed a block face.
std::int64_t segments_between_blocks(const SimulationState& s, const GridBlocks& blocks);

}  // namespace solvent::stencil3d
