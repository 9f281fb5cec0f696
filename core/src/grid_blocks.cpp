#include <solvent/errors.hpp>
#include <solvent/grid_blocks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace solvent {

namespace {

std::string grid_text(GridBlocks::Index3 n) { return fmt::format("{}×{}×{}", n[0], n[1], n[2]); }

void check_nodes(GridBlocks::Index3 nodes, int ranks) {
  if (nodes[0] < 1 || nodes[1] < 1 || nodes[2] < 1 || ranks < 1)
    throw ConfigError(
        {fmt::format("a {} node grid cannot be split over {} ranks: every "
                     "axis needs a node and the run a rank",
                     grid_text(nodes), ranks)});
}

}  // namespace

GridBlocks::Index3 GridBlocks::automatic_split(Index3 nodes, int ranks) {
  check_nodes(nodes, ranks);
  // A cut across axis a is a plane of the other two axes' nodes; p_a blocks need p_a - 1
  // of them. 64 bits: the product of two axes can exceed an int.
  const std::array<std::int64_t, 3> plane = {std::int64_t{nodes[1]} * nodes[2],
                                             std::int64_t{nodes[0]} * nodes[2],
                                             std::int64_t{nodes[0]} * nodes[1]};
  Index3 best{0, 0, 0};
  std::int64_t best_area = 0;
  // p3 and p2 descend, so a later split of equal area never displaces an earlier one: the
  // first found cuts the slowest axes most.
  for (int p3 = ranks; p3 >= 1; --p3) {
    if (ranks % p3 != 0 || p3 > nodes[2]) continue;
    for (int p2 = ranks / p3; p2 >= 1; --p2) {
      if ((ranks / p3) % p2 != 0 || p2 > nodes[1]) continue;
      const int p1 = ranks / p3 / p2;
      if (p1 > nodes[0]) continue;
      const std::int64_t area = (p1 - 1) * plane[0] + (p2 - 1) * plane[1] + (p3 - 1) * plane[2];
      if (best[0] == 0 || area < best_area) {
        best = {p1, p2, p3};
        best_area = area;
      }
    }
  }
  if (best[0] == 0)
    throw ConfigError(
        {fmt::format("a {} node grid cannot be split over {} ranks: no p1×p2×p3 = "
                     "{} has every p at most its axis's nodes",
                     grid_text(nodes), ranks, ranks)});
  return best;
}

GridBlocks::GridBlocks(Index3 nodes_, int ranks)
    : nodes(nodes_), split(automatic_split(nodes_, ranks)) {}

GridBlocks::GridBlocks(Index3 nodes_, int ranks, Index3 split_) : nodes(nodes_), split(split_) {
  check_nodes(nodes, ranks);
  const std::int64_t product = std::int64_t{split[0]} * split[1] * split[2];
  for (int a = 0; a < 3; ++a)
    if (split[a] < 1 || split[a] > nodes[a])
      throw ConfigError(
          {fmt::format("the split {} does not fit the {} node grid: axis {} "
                       "cannot be cut into {} blocks of at least one node",
                       grid_text(split), grid_text(nodes), a + 1, split[a])});
  if (product != ranks)
    throw ConfigError(
        {fmt::format("the split {} of the {} node grid makes {} blocks, but the "
                     "run has {} ranks",
                     grid_text(split), grid_text(nodes), product, ranks)});
}

GridBlocks::Index3 GridBlocks::coordinates(int rank) const {
  return {rank % split[0], rank / split[0] % split[1], rank / (split[0] * split[1])};
}

int GridBlocks::rank_at(Index3 c) const { return c[0] + split[0] * (c[1] + split[1] * c[2]); }

GridBlocks::Index3 GridBlocks::offset(int rank) const {
  const Index3 c = coordinates(rank);
  Index3 o;
  for (int a = 0; a < 3; ++a) {
    const int base = nodes[a] / split[a], larger = nodes[a] % split[a];
    o[a] = c[a] * base + std::min(c[a], larger);
  }
  return o;
}

GridBlocks::Index3 GridBlocks::extent(int rank) const {
  const Index3 c = coordinates(rank);
  Index3 e;
  for (int a = 0; a < 3; ++a) e[a] = nodes[a] / split[a] + (c[a] < nodes[a] % split[a] ? 1 : 0);
  return e;
}

std::array<int, 6> GridBlocks::neighbours(int rank) const {
  const Index3 c = coordinates(rank);
  std::array<int, 6> n;
  for (int a = 0; a < 3; ++a) {
    Index3 lower = c, upper = c;
    --lower[a];
    ++upper[a];
    n[2 * a] = c[a] > 0 ? rank_at(lower) : -1;
    n[2 * a + 1] = c[a] + 1 < split[a] ? rank_at(upper) : -1;
  }
  return n;
}

HaloExchange::HaloExchange(const GridBlocks& blocks, const Communicator& comm)
    : comm_(comm),
      extent_(blocks.extent(comm.rank())),
      coordinate_(blocks.coordinates(comm.rank())),
      neighbours_(blocks.neighbours(comm.rank())) {
  if (comm.size() != blocks.ranks())
    throw Error(fmt::format("a halo exchange of {} blocks over a run of {} ranks", blocks.ranks(),
                            comm.size()));
  for (int face = 0; face < 6; ++face) {
    if (neighbours_[face] < 0) continue;
    const int a = face / 2;
    const std::size_t values = static_cast<std::size_t>(extent_[(a + 1) % 3]) *
                               static_cast<std::size_t>(extent_[(a + 2) % 3]);
    send_[face].resize(values);
    receive_[face].resize(values);
  }
}

std::size_t HaloExchange::field_size() const {
  return static_cast<std::size_t>(extent_[0] + 2) * static_cast<std::size_t>(extent_[1] + 2) *
         static_cast<std::size_t>(extent_[2] + 2);
}

void HaloExchange::exchange(std::span<double> field) {
  if (field.size() != field_size())
    throw Error(
        fmt::format("a halo exchange of a field of {} values, where the block with its "
                    "ghost layer has {}",
                    field.size(), field_size()));
  const std::array<std::size_t, 3> stride = {
      1, static_cast<std::size_t>(extent_[0] + 2),
      static_cast<std::size_t>(extent_[0] + 2) * static_cast<std::size_t>(extent_[1] + 2)};
  // Visits the interior nodes of the plane `layer` (0 and e+1 are ghost layers) across axis
  // a, in the same order on both sides of a face, so a buffer packed by one rank unpacks on
  // the other.
  auto for_plane = [&](int a, int layer, auto&& visit) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    std::size_t n = 0;
    for (int kc = 1; kc <= extent_[c]; ++kc)
      for (int kb = 1; kb <= extent_[b]; ++kb)
        visit(n++, static_cast<std::size_t>(layer) * stride[a] +
                       static_cast<std::size_t>(kb) * stride[b] +
                       static_cast<std::size_t>(kc) * stride[c]);
  };
  for (int a = 0; a < 3; ++a) {
    // Even coordinates trade with the upper neighbour first, odd ones with the lower: every
    // pair meets in the same round, so the exchanges along an axis run side by side
    // instead of one after another down the line of ranks.
    const bool upper_first = coordinate_[a] % 2 == 0;
    for (int round = 0; round < 2; ++round) {
      const int side = upper_first ? 1 - round : round;
      const int face = 2 * a + side;
      if (neighbours_[face] < 0) continue;
      const int inner = side == 0 ? 1 : extent_[a], ghost = side == 0 ? 0 : extent_[a] + 1;
      auto& send = send_[face];
      auto& receive = receive_[face];
      for_plane(a, inner, [&](std::size_t n, std::size_t at) { send[n] = field[at]; });
      comm_.exchange(neighbours_[face], std::as_bytes(std::span<const double>(send)),
                     std::as_writable_bytes(std::span<double>(receive)));
      for_plane(a, ghost, [&](std::size_t n, std::size_t at) { field[at] = receive[n]; });
    }
  }
}

}  // namespace solvent
