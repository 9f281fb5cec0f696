#include <solvent/errors.hpp>
#include <solvent/grid/block_faces.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
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

GridBlocks::Index3 GridBlocks::parse_split(const std::string& text, const std::string& who) {
  Index3 p{0, 0, 0};
  int used = 0;
  if (std::sscanf(text.c_str(), "%dx%dx%d%n", &p[0], &p[1], &p[2], &used) != 3 ||
      used != int(text.size()))
    throw ConfigError({fmt::format(
        "{}: split = \"{}\" is not \"auto\" or P1xP2xP3 (e.g. \"1x2x2\")", who, text)});
  return p;
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
    o[a] = cuts[a].empty() ? c[a] * base + std::min(c[a], larger) : cuts[a][c[a]];
  }
  return o;
}

GridBlocks::Index3 GridBlocks::extent(int rank) const {
  const Index3 c = coordinates(rank);
  Index3 e;
  for (int a = 0; a < 3; ++a)
    e[a] = cuts[a].empty() ? nodes[a] / split[a] + (c[a] < nodes[a] % split[a] ? 1 : 0)
                           : cuts[a][c[a] + 1] - cuts[a][c[a]];
  return e;
}

void GridBlocks::weigh(int axis, std::span<const double> weights) {
  const int p = split[axis], n = nodes[axis];
  if (int(weights.size()) != p)
    throw ConfigError(
        {fmt::format("{} weights for the {} blocks along axis {}", weights.size(), p, axis + 1)});
  double total = 0.0;
  int used = 0;  // blocks of a positive weight
  for (const double w : weights) {
    if (!(w >= 0.0 && std::isfinite(w)))
      throw ConfigError(
          {fmt::format("a block weight of {} along axis {}: weights must be "
                       "finite and at least 0",
                       w, axis + 1)});
    total += w;
    used += w > 0.0;
  }
  if (used == 0)
    throw ConfigError({fmt::format("every block weight along axis {} is 0", axis + 1)});
  // One node each first (none for a weight of 0), then the rest by largest remainder: sizes
  // proportional to the weights to within a node, the same on every rank (the same weights,
  // the same order).
  std::vector<int> size(static_cast<std::size_t>(p), 0);
  std::vector<double> remainder(size.size(), -1.0);
  int left = n - used;
  for (std::size_t b = 0; b < size.size(); ++b) {
    if (weights[b] == 0.0) continue;
    size[b] = 1;
    const double share = (n - used) * weights[b] / total;
    const int whole = static_cast<int>(std::floor(share));
    size[b] += whole;
    left -= whole;
    remainder[b] = share - whole;
  }
  std::vector<std::size_t> order(size.size());
  for (std::size_t b = 0; b < order.size(); ++b) order[b] = b;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return remainder[x] > remainder[y]; });
  // The used blocks come first in `order` (the others' remainder is -1); fewer than `used`
  // nodes are left, the modulo only guards against rounding.
  for (std::size_t q = 0; left > 0; ++q, --left) ++size[order[q % std::size_t(used)]];
  cuts[axis].assign(1, 0);
  for (const int s : size) cuts[axis].push_back(cuts[axis].back() + s);
}

std::vector<int> GridBlocks::sizes(int axis) const {
  std::vector<int> out;
  for (int c = 0; c < split[axis]; ++c) {
    Index3 at{0, 0, 0};
    at[axis] = c;
    out.push_back(extent(rank_at(at))[axis]);
  }
  return out;
}

bool GridBlocks::empty(int rank) const {
  const Index3 e = extent(rank);
  return e[0] == 0 || e[1] == 0 || e[2] == 0;
}

std::array<int, 6> GridBlocks::neighbours(int rank) const {
  std::array<int, 6> n;
  n.fill(-1);
  if (empty(rank)) return n;
  const Index3 c = coordinates(rank);
  for (int a = 0; a < 3; ++a)
    for (const int step : {-1, 1}) {
      // Only weigh() empties blocks, a whole slab across the axis at a time, so a neighbour
      // past empty blocks along the axis is the one whose face meets this block's.
      Index3 at = c;
      for (at[a] += step; at[a] >= 0 && at[a] < split[a]; at[a] += step)
        if (!empty(rank_at(at))) {
          n[static_cast<std::size_t>(2 * a + (step > 0))] = rank_at(at);
          break;
        }
    }
  return n;
}

template <class T>
HaloExchange<T>::HaloExchange(const GridBlock& block, Layout layout)
    : comm_(*block.comm),
      layout_(layout),
      extent_(block.extent()),
      coordinate_(block.blocks.coordinates(block.rank)),
      neighbours_(block.blocks.neighbours(block.rank)) {
  if (comm_.size() != block.blocks.ranks() || block.rank != comm_.rank())
    throw Error(fmt::format("a halo exchange of block {} of {} over rank {} of a run of {} ranks",
                            block.rank, block.blocks.ranks(), comm_.rank(), comm_.size()));
  for (int face = 0; face < 6; ++face) {
    const int a = face / 2;
    const std::size_t values = neighbours_[face] < 0
                                   ? 0
                                   : static_cast<std::size_t>(extent_[(a + 1) % 3]) *
                                         static_cast<std::size_t>(extent_[(a + 2) % 3]);
    offset_[face + 1] = offset_[face] + values;
  }
  send_.resize(offset_[6]);
  receive_.resize(offset_[6]);
}

template <class T>
std::size_t HaloExchange<T>::field_size() const {
  const std::size_t border = layout_ == Layout::GhostLayer ? 2 : 0;
  return (static_cast<std::size_t>(extent_[0]) + border) *
         (static_cast<std::size_t>(extent_[1]) + border) *
         (static_cast<std::size_t>(extent_[2]) + border);
}

template <class T>
template <class Visit>
void HaloExchange<T>::for_face(int face, bool ghost_side, Visit&& visit) const {
  const std::int64_t border = layout_ == Layout::GhostLayer ? 1 : 0;
  const std::int64_t e[3] = {extent_[0], extent_[1], extent_[2]};
  const std::int64_t n1 = e[0] + 2 * border, n2 = e[1] + 2 * border;
  const std::int64_t nodes = face_nodes(e, face);
  for (std::int64_t q = 0; q < nodes; ++q) {
    std::int64_t i[3];
    face_node(e, face, q, ghost_side ? 1 : 0, i);
    visit(static_cast<std::size_t>(q),
          static_cast<std::size_t>(i[0] + border + n1 * (i[1] + border + n2 * (i[2] + border))));
  }
}

template <class T>
void HaloExchange<T>::pack(std::span<const T> field) {
  if (field.size() != field_size())
    throw Error(fmt::format(
        "a halo exchange of a field of {} values, where the block{} has {}", field.size(),
        layout_ == Layout::GhostLayer ? " with its ghost layer" : "", field_size()));
  for (int face = 0; face < 6; ++face) {
    if (face_size(face) == 0) continue;
    T* out = send_.data() + face_offset(face);
    for_face(face, false, [&](std::size_t n, std::size_t at) { out[n] = field[at]; });
  }
}

template <class T>
void HaloExchange<T>::transfer() {
  transfer(send_, receive_);
}

template <class T>
void HaloExchange<T>::transfer(std::span<const T> send, std::span<T> receive) const {
  if (send.size() != send_.size() || receive.size() != receive_.size())
    throw Error(fmt::format("a halo exchange of {} and {} values, where the faces have {}",
                            send.size(), receive.size(), send_.size()));
  for (int a = 0; a < 3; ++a) {
    // Even coordinates trade with the upper neighbour first, odd ones with the lower: every
    // pair meets in the same round, so the exchanges along an axis run side by side
    // instead of one after another down the line of ranks.
    const bool upper_first = coordinate_[a] % 2 == 0;
    for (int round = 0; round < 2; ++round) {
      const int face = 2 * a + (upper_first ? 1 - round : round);
      if (neighbours_[face] < 0) continue;
      comm_.exchange(neighbours_[face],
                     std::as_bytes(send.subspan(face_offset(face), face_size(face))),
                     std::as_writable_bytes(receive.subspan(face_offset(face), face_size(face))));
    }
  }
}

template <class T>
void HaloExchange<T>::unpack(std::span<T> field) const {
  if (layout_ != Layout::GhostLayer)
    throw Error("a halo exchange unpacks only into a field with a ghost layer");
  if (field.size() != field_size())
    throw Error(
        fmt::format("a halo exchange of a field of {} values, where the block with its "
                    "ghost layer has {}",
                    field.size(), field_size()));
  for (int face = 0; face < 6; ++face) {
    if (face_size(face) == 0) continue;
    const T* in = receive_.data() + face_offset(face);
    for_face(face, true, [&](std::size_t n, std::size_t at) { field[at] = in[n]; });
  }
}

template <class T>
void HaloExchange<T>::exchange(std::span<T> field) {
  pack(field);
  transfer();
  unpack(field);
}

template class HaloExchange<double>;
template class HaloExchange<std::complex<double>>;

}  // namespace solvent
