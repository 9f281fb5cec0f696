#pragma once
// A structured n1×n2×n3 node grid cut into one block per rank, and the exchange of the
// blocks' faces between neighbouring ranks: what a distributed stencil needs to apply itself
// to its own block. Axis 1 varies fastest, in the global numbering and in every block.
#include <solvent/communicator.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace solvent {

// The ranks form a p1×p2×p3 Cartesian process grid, numbered with axis 1 fastest
// (rank = c1 + p1 (c2 + p2 c3)); along each axis the n nodes are dealt out as evenly as
// possible: every block gets n / p, and the first n % p blocks one more.
struct GridBlocks {
  using Index3 = std::array<int, 3>;

  // The split of `ranks` that minimises the area of the faces between blocks (the volume a
  // halo exchange moves), each p no larger than its axis's n. Among equal splits the one
  // that cuts the slowest axes most is taken (largest p3, then largest p2): a block of
  // whole planes of axes 1 and 2 is contiguous in the global numbering, and its faces
  // are contiguous in memory. Throws ConfigError where no split fits the grid.
  static Index3 automatic_split(Index3 nodes, int ranks);

  // Split automatically.
  GridBlocks(Index3 nodes, int ranks);
  // Split as given: throws ConfigError, naming the split and the grid, unless
  // p1 p2 p3 = ranks and every p is at least 1 and at most its axis's n.
  GridBlocks(Index3 nodes, int ranks, Index3 split);

  int ranks() const { return split[0] * split[1] * split[2]; }
  // The rank's position in the process grid, each from 0 to p - 1.
  Index3 coordinates(int rank) const;
  int rank_at(Index3 coordinates) const;
  // The global index of the block's first node, and its number of nodes, per axis.
  Index3 offset(int rank) const;
  Index3 extent(int rank) const;
  // The ranks across the block's faces, in the order -axis 1, +axis 1, -axis 2, +axis 2,
  // -axis 3, +axis 3; -1 where the face lies on the grid's boundary (no axis is periodic).
  std::array<int, 6> neighbours(int rank) const;

  Index3 nodes;
  Index3 split;
};

// Fills the ghost layer of one rank's block with its neighbours' boundary values. The field
// is the block with one ghost layer on every side: (e1+2)(e2+2)(e3+2) doubles, axis 1
// fastest, the block's node (i, j, k) (from 0) at (i+1) + (e1+2) ((j+1) + (e2+2) (k+1)).
// Only the six faces are exchanged — enough for a 7-point stencil; the ghost edges and
// corners, and the ghost faces on the grid's boundary, are left as they are. Every rank of
// `blocks` must call exchange() together. The buffers are allocated once, here.
class HaloExchange {
 public:
  // `comm` must outlive this object and have blocks.ranks() ranks.
  HaloExchange(const GridBlocks& blocks, const Communicator& comm);

  // The field's size: (e1+2)(e2+2)(e3+2) for this rank's extents.
  std::size_t field_size() const;
  // Throws Error where `field` does not have field_size() values.
  void exchange(std::span<double> field);

 private:
  const Communicator& comm_;
  GridBlocks::Index3 extent_;
  std::array<int, 3> coordinate_;
  std::array<int, 6> neighbours_;
  // Per face (the order of neighbours()): this block's values, and the neighbour's.
  std::array<std::vector<double>, 6> send_, receive_;
};

}  // namespace solvent
