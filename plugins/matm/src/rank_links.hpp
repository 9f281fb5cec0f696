#pragma once
// What a MATM backend exchanges with the neighbouring ranks when the grid is split over
// axes 2 and 3 (SplitStencil's view over ranks: the block inside a ghost layer):
//   - the whole ghost layer of a field before a product (HaloExchange);
//   - one fragment of a triangular sweep's boundary planes, i in [i0, i1), received from the
//     neighbours the sweep comes from before the rank sweeps that fragment and sent on
//     to those it goes to after: the pipeline of Sukhinov et al., in which rank r starts
//     fragment f as soon as rank r - 1 has finished it.
// A host backend hands over its fields (exchange, receive_fragment, send_fragment); a device
// backend, whose fields the host cannot touch, asks where the planes lie (Strip) and moves
// them between its memory and host buffers itself, the messages laid out the same way.
#include <solvent/grid/exchange_cost.hpp>
#include <solvent/grid/grid_blocks.hpp>
#include <solvent_matm/split_operator.hpp>

#include <span>
#include <utility>
#include <vector>

namespace solvent::matm {

// One face's plane of nodes i0 <= i < i1 in a view with a ghost layer: `rows` runs of
// `length` consecutive values, the first at view index `first`, each `pitch` after the one
// before. A message holds the rows one after another, as HaloExchange's faces do.
struct Strip {
  int face = 0;  // GridBlocks::neighbours order
  int peer = -1;
  std::size_t first = 0, pitch = 0, rows = 0, length = 0;
  std::size_t size() const { return rows * length; }
};

class RankLinks {
 public:
  // pipelined: the sweeps of the whole grid, passed on between ranks. Otherwise ("block"
  // coupling) the preconditioner is that of each rank's block alone: a sweep reads 0 where
  // it would read a neighbour's value, so no strip is sent and every rank sweeps at once.
  RankLinks(const GridBlock& block, bool pipelined);
  bool pipelined() const { return pipelined_; }

  void exchange(std::span<double> field) { halo_.exchange(field); }
  // forward: the lower sweep (from the lower neighbours of axes 2 and 3 to the upper
  // ones); otherwise the upper sweep, the other way.
  // Not pipelined: receive_fragment zeroes the incoming ghost planes instead (the upper
  // sweep's field, w, holds the neighbours' values from the product before), and
  // send_fragment sends nothing.
  void receive_fragment(std::span<double> field, index_t i0, index_t i1, bool forward);
  void send_fragment(std::span<const double> field, index_t i0, index_t i1, bool forward);
  // The ranks a sweep passes through one after another: p2 + p3 - 1, less the slabs of
  // empty blocks (GridBlocks::weigh).
  int pipeline_depth() const { return depth_; }
  // The fragments a sweep is cut in at first: `requested`, or for 0 four per rank the sweep
  // passes through, so that the pipeline's fill and drain (depth - 1 fragments of idle time
  // per rank) cost about a fifth of a sweep; at most one per warp of axis 1 (see fragment()).
  // Not pipelined, or a pipeline of one rank: 1, the whole line.
  int fragments(int requested) const;
  // Collective: the slowest link of any rank to the neighbours its sweeps talk to, timed
  // with messages of one value and of a whole strip (measure_links): what chooses how many
  // fragments a sweep is cut in, and what the record keeps of the links.
  LinkFit measure();
  // Collective: the fragment count that makes a sweep over the pipeline quickest when a
  // rank's own part of it takes `work_s` seconds (the slowest rank's, and its strips, count):
  // pipeline_fragments (pipeline.hpp) for this pipeline's depth, at most one a warp of axis
  // 1. Every rank gets the same count.
  int fragments_for(const LinkFit& link, double work_s) const;
  // Fragment q of `count` (0 first in the sweep's direction: the lower sweep's from the
  // line's start, the upper sweep's from its end), as view indices i0 <= i < i1 along
  // axis 1. Every backend cuts its sweeps here, so a rank and its neighbour, on a CPU or a
  // GPU, pass the same strips. The cuts lie a whole number of warps (32 nodes) from the
  // line's start in the sweep's direction, so that no fragment splits a warp-scan group of
  // the CUDA sweep (each group then gives the values of one unbroken sweep); the CPU sweep
  // continues each line across any cut, so its values do not depend on where they lie.
  std::pair<index_t, index_t> fragment(int q, int count, bool forward) const;

  // For a device backend. The strips of fragment [i0, i1) that receive_fragment receives
  // (incoming: the ghost planes, from the neighbours the sweep comes from) or send_fragment
  // sends (the block's own planes next to the faces the sweep goes on through), in the order
  // those take them; only faces with a neighbour.
  std::vector<Strip> fragment_strips(index_t i0, index_t i1, bool forward, bool incoming) const;
  // Face `face` of the ghost layer as a strip of whole lines: the block's own plane
  // (ghost = false, what pack() sends) or the ghost plane beyond it (what unpack() fills);
  // its message sits at halo().face_offset(face) of the halo's buffers.
  Strip face_strip(int face, bool ghost) const { return strip(face, ghost, 1, e_[0] + 1); }
  void send(const Strip& s, std::span<const double> message) const;
  void receive(const Strip& s, std::span<double> message) const;
  HaloExchange<double>& halo() { return halo_; }

 private:
  // The strip i0 <= i < i1 of face `face` (of axis 2 or 3: axis 1 is never split): the
  // block's own plane next to the face, or the ghost plane beyond it.
  Strip strip(int face, bool ghost, index_t i0, index_t i1) const;

  const Communicator& comm_;
  HaloExchange<double> halo_;
  index_t e_[3];
  int depth_;
  bool pipelined_;
  std::vector<double> buffer_;
};

}  // namespace solvent::matm
