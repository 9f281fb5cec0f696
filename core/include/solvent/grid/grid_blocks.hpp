#pragma once
// A structured n1×n2×n3 node grid cut into one block per rank, and the exchange of the
// blocks' faces between neighbouring ranks: what a distributed stencil needs to apply itself
// to its own block. Axis 1 varies fastest, in the global numbering and in every block.
#include <solvent/communicator.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <string>
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
  // A split written "P1xP2xP3" (e.g. "1x2x2"), as a model's `split` key takes it; throws
  // ConfigError, prefixed by `who`, for any other text.
  static Index3 parse_split(const std::string& text, const std::string& who);

  // Sizes the blocks along `axis` (0, 1 or 2) in proportion to `weights`, one per block
  // along the axis (each finite and at least 0, one at least positive), every block of a
  // positive weight at least one node, one of weight 0 none (its ranks hold an empty block:
  // a rank too slow to pay for its exchanges, weigh_by_speed); the other axes stay even.
  // For ranks of different speeds: each gets work in proportion to its speed. Throws
  // ConfigError on a wrong count or weight.
  void weigh(int axis, std::span<const double> weights);
  // The block sizes along `axis`, in order.
  std::vector<int> sizes(int axis) const;

  int ranks() const { return split[0] * split[1] * split[2]; }
  // The rank's position in the process grid, each from 0 to p - 1.
  Index3 coordinates(int rank) const;
  int rank_at(Index3 coordinates) const;
  // The global index of the block's first node, and its number of nodes, per axis.
  Index3 offset(int rank) const;
  Index3 extent(int rank) const;
  // Whether the rank's block has no nodes (weigh gave its blocks weight 0).
  bool empty(int rank) const;
  // The ranks across the block's faces, in the order -axis 1, +axis 1, -axis 2, +axis 2,
  // -axis 3, +axis 3; -1 where the face lies on the grid's boundary (no axis is periodic).
  // Empty blocks are looked past (the neighbour is the next block along the axis that has
  // nodes), and an empty block has no neighbours: its rank exchanges nothing.
  std::array<int, 6> neighbours(int rank) const;

  Index3 nodes;
  Index3 split;
  // Per axis, where weigh() set them: the first node of each block, then the axis's n
  // (split + 1 values); empty for an even split.
  std::array<std::vector<int>, 3> cuts;
};

// One rank's block of a distributed grid: what an operator or a field defined on the block
// carries to reach its neighbours. `comm` has blocks.ranks() ranks and outlives the block.
struct GridBlock {
  GridBlocks blocks;
  int rank = 0;
  const Communicator* comm = nullptr;

  GridBlocks::Index3 offset() const { return blocks.offset(rank); }
  GridBlocks::Index3 extent() const { return blocks.extent(rank); }
};

// Moves the values next to each face of one rank's block to the neighbour across it, and
// receives the neighbour's: everything a 7-point stencil needs from other ranks. Two layouts
// of a rank's field, axis 1 fastest in both:
//   Layout::Block       the block alone, e1 e2 e3 values;
//   Layout::GhostLayer  the block with one ghost layer on every side, (e1+2)(e2+2)(e3+2)
//                       values, the block's node (i, j, k) (from 0) at
//                       (i+1) + (e1+2) ((j+1) + (e2+2) (k+1)); exchange() fills the ghost
//                       faces (not the edges and corners, nor faces on the grid's boundary).
// The faces are packed one after another into one send and one receive buffer (allocated
// once, here), face f (the order of GridBlocks::neighbours) at face_offset(f) with
// face_size(f) values (0 where the face is on the grid's boundary), over the face's two
// other axes with the lower axis fastest. The steps are public so that a device can pack
// and unpack its own memory and use transfer() alone: pack(), transfer(), then ghost(f) or
// unpack(). Every rank of the block's grid calls transfer() (or exchange()) together.
template <class T>
class HaloExchange {
 public:
  enum class Layout { Block, GhostLayer };

  // Throws Error unless block.comm has block.blocks.ranks() ranks.
  explicit HaloExchange(const GridBlock& block, Layout layout = Layout::GhostLayer);
  HaloExchange(const GridBlocks& blocks, const Communicator& comm,
               Layout layout = Layout::GhostLayer)
      : HaloExchange(GridBlock{blocks, comm.rank(), &comm}, layout) {}

  // The field's size in its layout.
  std::size_t field_size() const;
  std::size_t face_offset(int face) const { return offset_[static_cast<std::size_t>(face)]; }
  std::size_t face_size(int face) const { return face_offset(face + 1) - face_offset(face); }
  const std::array<int, 6>& neighbours() const { return neighbours_; }
  const GridBlocks::Index3& extent() const { return extent_; }

  // The block's values next to each face, into the send buffer. Throws Error where `field`
  // does not have field_size() values (here and in unpack and exchange).
  void pack(std::span<const T> field);
  // The send buffer to the neighbours, theirs into the receive buffer.
  void transfer();
  // The same from and into buffers of the same layout elsewhere (device memory, where the
  // communicator takes it: Communicator::device_memory).
  void transfer(std::span<const T> send, std::span<T> receive) const;
  // The received faces into the ghost layer (Layout::GhostLayer only).
  void unpack(std::span<T> field) const;
  // pack, transfer, unpack.
  void exchange(std::span<T> field);

  std::span<T> send_buffer() { return send_; }
  std::span<T> receive_buffer() { return receive_; }
  // The neighbour's layer across face f (empty where there is none).
  std::span<const T> ghost(int face) const {
    return std::span<const T>(receive_).subspan(face_offset(face), face_size(face));
  }

 private:
  // Calls visit(n, at) for the n-th node of face `face` at index `at` of the field: the
  // block's own layer if `ghost_side` is false, else the ghost layer beyond it.
  template <class Visit>
  void for_face(int face, bool ghost_side, Visit&& visit) const;

  const Communicator& comm_;
  Layout layout_;
  GridBlocks::Index3 extent_;
  GridBlocks::Index3 coordinate_;
  std::array<int, 6> neighbours_;
  std::array<std::size_t, 7> offset_{};
  std::vector<T> send_, receive_;
};

}  // namespace solvent
