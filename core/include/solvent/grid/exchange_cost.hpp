#pragma once
// What a rank's exchanges cost an iteration, and the sharing of a grid among ranks of
// different speeds that weighs it: blocks in proportion to the ranks' measured speeds,
// except that a rank whose share takes the others less time than its own exchanges add
// gets no block at all (a CPU rank beside a GPU one: its few planes would be done by the
// GPU in less time than the rank spends in its halo exchanges and sums, which every
// iteration waits for).
#include <solvent/communicator.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <cstddef>
#include <span>
#include <vector>

namespace solvent {

// The time of one message of V bytes between neighbouring ranks, T = latency + V /
// bandwidth (seconds_per_byte = 1 / bandwidth).
struct LinkFit {
  double latency_s = 0.0, seconds_per_byte = 0.0;
  double seconds(double bytes) const { return latency_s + seconds_per_byte * bytes; }
};

// Collective: the slowest link of any rank to its `peers` (entries below 0 are skipped; a
// rank is the peer of each of its peers), fitted from exchanges with all of them at once
// of one value and of `values` doubles, the best of five each. Every rank passes the same
// `values` (at least 1).
LinkFit measure_links(const Communicator& comm, std::span<const int> peers, std::size_t values);

// The exchanges of one iteration of a linear solver over the blocks of a grid: halo
// exchanges of a field's faces with every neighbouring block (each face one message), and
// reductions over all ranks (each counted as one message's latency).
struct IterationExchanges {
  int halos = 1;
  int reductions = 1;
};

// A rank weigh_by_speed gave no block, and why: its measured speed (nodes a second), the
// slowest rank of its slab (which paces the slab: the rank itself, or one it goes with) and
// the axis the slabs lie across (0, 1, 2), the fraction of the grid's nodes the slab's pace
// would have earned the rank, the time the other ranks need for that share an iteration,
// and what its exchanges cost an iteration.
struct EmptiedRank {
  int rank = 0;
  double speed = 0.0;
  int slowest = 0, axis = 0;
  double share = 0.0, others_s = 0.0, exchanges_s = 0.0;
};

// Sizes the blocks by the ranks' speeds (nodes a second, every one positive) along the
// most-split of axes 2 and 3 (the axes the sweeps and lines leave whole are not cut finer):
// a slab of blocks at one coordinate of that axis advances at its slowest rank's pace, so
// that rank's speed weighs the slab. Then, one slab at a time, the slab whose share is
// least worth its exchanges is given no nodes while its share of the grid takes the other
// ranks less time than the exchanges of its ranks cost an iteration (`exchanges` over
// `link`, on the faces its blocks would have); the other slabs share the grid by their
// speeds. A slab alone keeps the grid. Returns the ranks given no block, in rank order:
// the same on every rank (the same speeds, link and blocks).
std::vector<EmptiedRank> weigh_by_speed(GridBlocks& blocks, std::span<const double> speeds,
                                        const LinkFit& link, const IterationExchanges& exchanges);

}  // namespace solvent
