#pragma once
// explicit-stencil3d over several ranks (docs/architecture.md, "The hybrid stencil over
// ranks"): every rank holds the tips and the network whole and f, c, owner on its window;
// the ranks share the tips' decisions each step (hybrid mode) or the layer around their
// blocks (continuous mode), and rank 0 gathers the blocks for the checkpoint and the PNG.
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

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

// A tip's decision (decide()) as it travels between ranks: only tips that move or branch
// send one.
struct TipDecision {
  std::int32_t tip, target, met, site;
};

// Every rank has decided the tips on its block, `decisions` those that move or branch,
// and counted `bad` probabilities among them. Afterwards `decisions` holds those of every
// rank, ordered by tip; returns the sum of the counts.
std::int32_t share_decisions(const Communicator& comm, std::vector<TipDecision>& decisions,
                             std::int32_t bad);
// The same with the decisions in arrays indexed by tip (-1 where a tip stays and does not
// branch): afterwards every rank holds those of all `tips`.
std::int32_t share_decisions(const Communicator& comm, std::int32_t tips, std::int32_t* target,
                             std::int32_t* met, std::int32_t* site, std::int32_t bad);

// The continuous mode over ranks: every step each rank's window (its block and one node
// around it) gets n, f and c of the layer around its block from the neighbours' blocks.
// The axes go in turn, each moving a slab that spans the window along the axes done before
// it, so that the layer's edges and corners arrive too (the field writer's pieces hold the
// block's upper layer, edges included) with one message a face. The steps are public so
// that a device engine can pack and unpack its own memory around transfer().
class WindowHalo {
 public:
  struct Slab {
    int peer;
    Box send;        // this rank's nodes next to the face
    Box receive;     // the neighbour's nodes beyond it, in this rank's window
    std::size_t at;  // where the slab's values start in the axis's buffers
  };

  // `window` is this rank's block of `blocks` and the nodes within one of it; `fields` the
  // number of fields moved together (each slab holds them one after another).
  WindowHalo(const GridBlocks& blocks, const Communicator& comm, const Box& window, int fields);

  // The slabs along `axis` (0, 1, 2): none, one or two, as the block has neighbours.
  const std::vector<Slab>& slabs(int axis) const { return slabs_[static_cast<std::size_t>(axis)]; }
  // The values the slabs of `axis` hold together, all fields.
  std::size_t values(int axis) const { return values_[static_cast<std::size_t>(axis)]; }
  // The send buffer's slabs of `axis` to the neighbours, theirs into `receive`; every rank
  // calls it together, axis after axis.
  void transfer(int axis, std::span<const double> send, std::span<double> receive) const;
  // The whole exchange of fields laid out as the window, in host memory.
  void exchange(std::span<double* const> fields);

 private:
  const Communicator& comm_;
  Box window_;
  int fields_;
  std::array<std::vector<Slab>, 3> slabs_;
  std::array<std::size_t, 3> values_{};
  std::vector<double> send_, receive_;
};

// The segments whose two nodes lie in different blocks: tips that crossed a block face.
std::int64_t segments_between_blocks(const SimulationState& s, const GridBlocks& blocks);

}  // namespace solvent::stencil3d
