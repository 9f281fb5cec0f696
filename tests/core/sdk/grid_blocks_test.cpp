// GridBlocks: the automatic split, a given split's checks, and blocks that tile the grid;
// HaloExchange: on however many ranks mpirun started, every ghost face value that has a
// neighbour holds the neighbour's value at that global node, for every split of the ranks.
#include <doctest/doctest.h>

#include "ranks/communicator_world.hpp"

#include <solvent/errors.hpp>
#include <solvent/grid/block_faces.hpp>
#include <solvent/grid/exchange_cost.hpp>
#include <solvent/grid/grid_blocks.hpp>
#include <solvent_test/grid_splits.hpp>

#include <complex>
#include <cstdlib>
#include <string>
#include <vector>

using solvent::GridBlocks;
using Index3 = GridBlocks::Index3;
using solvent::test::all_splits;

namespace {

// Every node of the grid lies in exactly one block, and extents along an axis differ by at
// most one, the larger first.
void check_tiling(const GridBlocks& g) {
  std::vector<int> owners(static_cast<std::size_t>(g.nodes[0]) * g.nodes[1] * g.nodes[2], 0);
  for (int r = 0; r < g.ranks(); ++r) {
    CHECK(g.rank_at(g.coordinates(r)) == r);
    const Index3 o = g.offset(r), e = g.extent(r);
    for (int k = o[2]; k < o[2] + e[2]; ++k)
      for (int j = o[1]; j < o[1] + e[1]; ++j)
        for (int i = o[0]; i < o[0] + e[0]; ++i)
          ++owners[static_cast<std::size_t>(i) +
                   static_cast<std::size_t>(g.nodes[0]) *
                       (j + static_cast<std::size_t>(g.nodes[1]) * k)];
    for (int a = 0; a < 3; ++a) {
      CHECK(e[a] >= g.nodes[a] / g.split[a]);
      CHECK(e[a] <= g.nodes[a] / g.split[a] + 1);
      const auto n = g.neighbours(r);
      if (n[2 * a + 1] >= 0) {
        CHECK(g.offset(n[2 * a + 1])[a] == o[a] + e[a]);
        CHECK(g.extent(n[2 * a + 1])[a] <= e[a]);
        CHECK(g.neighbours(n[2 * a + 1])[2 * a] == r);
      } else {
        CHECK(o[a] + e[a] == g.nodes[a]);
      }
      if (n[2 * a] < 0) CHECK(o[a] == 0);
    }
  }
  for (int count : owners) REQUIRE(count == 1);
}

double global_value(int i, int j, int k) { return i + 1000.0 * j + 1e6 * k; }

TEST_CASE("the automatic split minimises the faces between blocks") {
  struct Case {
    Index3 nodes;
    int ranks;
    Index3 split;
  };
  const Case cases[] = {
      {{8, 8, 8}, 1, {1, 1, 1}},
      // Equal areas: the slowest axis is cut first.
      {{8, 8, 8}, 2, {1, 1, 2}},
      {{8, 8, 8}, 4, {1, 2, 2}},
      {{8, 8, 8}, 8, {2, 2, 2}},
      {{12, 12, 12}, 6, {1, 2, 3}},
      {{16, 16, 16}, 64, {4, 4, 4}},
      // A long axis 1 is cut across, whatever its place in memory.
      {{100, 10, 10}, 4, {4, 1, 1}},
      {{10, 100, 10}, 8, {1, 8, 1}},
      // A flat grid is never cut across its single plane.
      {{64, 64, 1}, 4, {2, 2, 1}},
      {{64, 32, 1}, 8, {4, 2, 1}},
      // A prime number of ranks: one axis, the slowest that has room.
      {{16, 16, 16}, 7, {1, 1, 7}},
      {{16, 16, 4}, 7, {1, 7, 1}},
      // Uneven blocks: 10 nodes over 3 ranks are 4, 3, 3.
      {{10, 10, 10}, 3, {1, 1, 3}},
      {{7, 6, 5}, 12, {3, 2, 2}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.nodes);
    CAPTURE(c.ranks);
    CHECK(GridBlocks::automatic_split(c.nodes, c.ranks) == c.split);
    check_tiling(GridBlocks(c.nodes, c.ranks));
  }
}

TEST_CASE("the first remainder blocks are one node longer") {
  const GridBlocks g({10, 1, 1}, 3, {3, 1, 1});
  CHECK(g.extent(0) == Index3{4, 1, 1});
  CHECK(g.extent(1) == Index3{3, 1, 1});
  CHECK(g.extent(2) == Index3{3, 1, 1});
  CHECK(g.offset(2) == Index3{7, 0, 0});
  CHECK(g.neighbours(1) == std::array<int, 6>{0, 2, -1, -1, -1, -1});
}

TEST_CASE("every given split of a grid tiles it") {
  for (const Index3 nodes : {Index3{7, 6, 5}, Index3{3, 1, 9}})
    for (int ranks : {1, 2, 3, 4, 6, 12})
      for (const Index3 split : all_splits(ranks, nodes)) {
        CAPTURE(nodes);
        CAPTURE(split);
        check_tiling(GridBlocks(nodes, ranks, split));
      }
}

TEST_CASE("weighted blocks are sized by their weights, at least one node each, and tile the grid") {
  GridBlocks g({10, 12, 30}, 6, {1, 2, 3});
  const std::vector<double> weights = {4.0, 1.0, 1.0};
  g.weigh(2, weights);
  // 27 nodes beyond the one each are shared 18 : 4.5 : 4.5; the half goes to the first.
  CHECK(g.sizes(2) == std::vector<int>{19, 6, 5});
  CHECK(g.sizes(1) == std::vector<int>{6, 6});
  CHECK(g.offset(g.rank_at({0, 1, 2})) == Index3{0, 6, 25});
  CHECK(g.extent(g.rank_at({0, 1, 1})) == Index3{10, 6, 6});
  std::vector<int> owners(10 * 12 * 30, 0);
  for (int r = 0; r < g.ranks(); ++r) {
    const Index3 o = g.offset(r), e = g.extent(r);
    for (int k = o[2]; k < o[2] + e[2]; ++k)
      for (int j = o[1]; j < o[1] + e[1]; ++j)
        for (int i = o[0]; i < o[0] + e[0]; ++i) ++owners[std::size_t(i + 10 * (j + 12 * k))];
  }
  for (int count : owners) REQUIRE(count == 1);
  // A weight a thousand times smaller still gets its node.
  GridBlocks h({5, 5, 4}, 2, {1, 1, 2});
  const std::vector<double> skewed = {1000.0, 1.0};
  h.weigh(2, skewed);
  CHECK(h.sizes(2) == std::vector<int>{3, 1});
  const std::vector<double> negative = {1.0, -1.0}, none = {0.0, 0.0}, three = {1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(h.weigh(2, negative),
                       "a block weight of -1 along axis 3: weights must be finite and at least 0",
                       solvent::ConfigError);
  CHECK_THROWS_WITH_AS(h.weigh(2, none), "every block weight along axis 3 is 0",
                       solvent::ConfigError);
  CHECK_THROWS_WITH_AS(h.weigh(2, three), "3 weights for the 2 blocks along axis 3",
                       solvent::ConfigError);
}

TEST_CASE("a block of weight 0 is empty: it has no neighbours, and its neighbours look past it") {
  GridBlocks g({6, 4, 11}, 8, {1, 2, 4});
  const std::vector<double> weights = {1.0, 0.0, 0.0, 2.0};
  g.weigh(2, weights);
  CHECK(g.sizes(2) == std::vector<int>{4, 0, 0, 7});
  for (int r = 0; r < g.ranks(); ++r) {
    const int c3 = g.coordinates(r)[2];
    CHECK(g.empty(r) == (c3 == 1 || c3 == 2));
    const auto n = g.neighbours(r);
    if (g.empty(r)) {
      CHECK(n == std::array<int, 6>{-1, -1, -1, -1, -1, -1});
      continue;
    }
    // Across axis 3 the block of the other end; across axis 2 the one beside it.
    const int other = g.rank_at({0, g.coordinates(r)[1], c3 == 0 ? 3 : 0});
    CHECK(n[4] == (c3 == 0 ? -1 : other));
    CHECK(n[5] == (c3 == 0 ? other : -1));
    CHECK(n[2 + (g.coordinates(r)[1] == 0)] == g.rank_at({0, 1 - g.coordinates(r)[1], c3}));
  }
}

TEST_CASE("weigh_by_speed gives a rank whose share is not worth its exchanges no block") {
  const solvent::LinkFit link{1e-5, 1e-9};
  const solvent::IterationExchanges cg{1, 2};
  // Rank 1 a billion times slower than its neighbours: its share (a fraction 5e-10 of the
  // grid) takes them 6.1e-13 s, while its two faces of 9 x 9 values cost 2 (1e-5 + 648e-9) s
  // and its two sums 2e-5 s an iteration. Theirs (1215 nodes, 1.2 ms) are worth their one face.
  GridBlocks g({9, 9, 30}, 3, {1, 1, 3});
  const std::vector<double> speeds = {1e6, 1e-3, 1e6};
  const auto emptied = solvent::weigh_by_speed(g, speeds, link, cg);
  REQUIRE(emptied.size() == 1);
  CHECK(emptied[0].rank == 1);
  CHECK(emptied[0].speed == 1e-3);
  CHECK(emptied[0].slowest == 1);
  CHECK(emptied[0].axis == 2);
  CHECK(emptied[0].share == doctest::Approx(5e-10));
  CHECK(emptied[0].others_s == doctest::Approx(2430 * 5e-10 / 2e6));
  CHECK(emptied[0].exchanges_s == doctest::Approx(2 * (1e-5 + 648e-9) + 2e-5));
  CHECK(g.sizes(2) == std::vector<int>{15, 0, 15});
  CHECK(g.neighbours(0)[5] == 2);
  CHECK(g.neighbours(2)[4] == 0);
  // Ranks whose shares outweigh their exchanges keep blocks by speed.
  GridBlocks even({9, 9, 30}, 3, {1, 1, 3});
  const std::vector<double> slow = {2.0, 1.0, 1.0};
  CHECK(solvent::weigh_by_speed(even, slow, link, cg).empty());
  CHECK(even.sizes(2) == std::vector<int>{14, 8, 8});
  // Ranks so fast that no share is worth its exchanges: a slab alone keeps the grid (of two
  // equal ones the first is emptied, both its ranks).
  GridBlocks two({9, 9, 30}, 4, {1, 2, 2});
  const std::vector<double> racing = {1e12, 1e12, 1e12, 1e12};
  const auto gone = solvent::weigh_by_speed(two, racing, link, cg);
  REQUIRE(gone.size() == 2);
  CHECK(gone[0].rank == 0);
  CHECK(gone[1].rank == 1);
  CHECK(gone[1].slowest == 0);
  CHECK(two.sizes(2) == std::vector<int>{0, 30});
}

TEST_CASE("a split that does not fit is a configuration error naming it and the grid") {
  CHECK_THROWS_WITH_AS(GridBlocks({8, 8, 8}, 4, {2, 2, 2}),
                       "the split 2×2×2 of the 8×8×8 node grid makes 8 blocks, but the run has "
                       "4 ranks",
                       solvent::ConfigError);
  CHECK_THROWS_WITH_AS(GridBlocks({2, 8, 8}, 3, {3, 1, 1}),
                       "the split 3×1×1 does not fit the 2×8×8 node grid: axis 1 cannot be cut "
                       "into 3 blocks of at least one node",
                       solvent::ConfigError);
  CHECK_THROWS_AS(GridBlocks({8, 8, 8}, 1, {1, 0, 1}), solvent::ConfigError);
  CHECK_THROWS_WITH_AS(GridBlocks::automatic_split({3, 3, 3}, 5),
                       "a 3×3×3 node grid cannot be split over 5 ranks: no p1×p2×p3 = 5 has "
                       "every p at most its axis's nodes",
                       solvent::ConfigError);
  CHECK_THROWS_AS(GridBlocks({8, 0, 8}, 1), solvent::ConfigError);
}

TEST_CASE("a split is read from P1xP2xP3 and nothing else") {
  CHECK(GridBlocks::parse_split("1x2x3", "m") == Index3{1, 2, 3});
  CHECK(GridBlocks::parse_split("12x1x1", "m") == Index3{12, 1, 1});
  CHECK_THROWS_WITH_AS(GridBlocks::parse_split("2x2", "model 'm'"),
                       "model 'm': split = \"2x2\" is not \"auto\" or P1xP2xP3 (e.g. \"1x2x2\")",
                       solvent::ConfigError);
  for (const char* text : {"1x2x2 ", "1x2x2x1", "ax1x1", ""})
    CHECK_THROWS_AS(GridBlocks::parse_split(text, "m"), solvent::ConfigError);
}

// After two exchanges every ghost face of this rank's block that has a neighbour holds the
// neighbour's value at that global node; the interior is as written, the rest untouched.
// Returns how many ghost values were received.
std::size_t check_exchange(const GridBlocks& g, const solvent::Communicator& comm) {
  const double untouched = -1.0;
  solvent::HaloExchange<double> halo(g, comm);
  const Index3 o = g.offset(comm.rank()), e = g.extent(comm.rank());
  const auto neighbours = g.neighbours(comm.rank());
  std::vector<double> field(halo.field_size(), untouched);
  auto at = [&](int i, int j, int k) -> double& {
    return field[static_cast<std::size_t>(i + 1) +
                 static_cast<std::size_t>(e[0] + 2) *
                     (static_cast<std::size_t>(j + 1) +
                      static_cast<std::size_t>(e[1] + 2) * static_cast<std::size_t>(k + 1))];
  };
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i) at(i, j, k) = global_value(o[0] + i, o[1] + j, o[2] + k);
  // Twice: the buffers kept from the first exchange must serve the second.
  halo.exchange(field);
  halo.exchange(field);

  std::size_t received = 0;
  for (int k = -1; k <= e[2]; ++k)
    for (int j = -1; j <= e[1]; ++j)
      for (int i = -1; i <= e[0]; ++i) {
        const Index3 local{i, j, k};
        int outside = 0, face = -1;
        for (int a = 0; a < 3; ++a)
          if (local[a] < 0 || local[a] >= e[a]) {
            ++outside;
            face = 2 * a + (local[a] < 0 ? 0 : 1);
          }
        // The interior as written, a face towards a neighbour as the neighbour holds it (past
        // empty blocks, which take no nodes, the next global node); edges, corners and
        // boundary faces as they were.
        const bool known = outside == 0 || (outside == 1 && neighbours[face] >= 0);
        const double expected = known ? global_value(o[0] + i, o[1] + j, o[2] + k) : untouched;
        if (known && outside == 1) ++received;
        if (at(i, j, k) != expected) {
          CAPTURE(local);
          CHECK(at(i, j, k) == expected);
        }
      }
  return received;
}

}  // namespace

TEST_CASE("the halo exchange fills every ghost face that has a neighbour") {
  const solvent::Communicator& comm = solvent::world();
  // Under mpirun the test must really run over its ranks, not as copies of one rank.
  if (const char* size = std::getenv("OMPI_COMM_WORLD_SIZE"))
    REQUIRE(comm.size() == std::atoi(size));
  const Index3 nodes{7, 6, 5};
  for (const Index3 split : all_splits(comm.size(), nodes)) {
    CAPTURE(split);
    const std::size_t received = check_exchange(GridBlocks(nodes, comm.size(), split), comm);
    // Over several ranks every block has a neighbour, so something was received and checked.
    if (comm.size() > 1) CHECK(received > 0);
  }
}

TEST_CASE("the halo exchange looks past empty blocks, and an empty block exchanges nothing") {
  const solvent::Communicator& comm = solvent::world();
  if (comm.size() < 3) return;
  // Every other slab along axis 3 empty but the first and the last.
  GridBlocks g({7, 6, 2 * comm.size()}, comm.size(), {1, 1, comm.size()});
  std::vector<double> weights(static_cast<std::size_t>(comm.size()), 0.0);
  for (std::size_t s = 0; s < weights.size(); s += 2) weights[s] = 1.0;
  weights.back() = 1.0;
  g.weigh(2, weights);
  const auto r = static_cast<std::size_t>(comm.rank());
  REQUIRE(g.empty(comm.rank()) == (weights[r] == 0.0));
  // A block with nodes gets the faces of the nearest blocks with nodes below and above it.
  std::size_t expected = 0;
  if (weights[r] > 0.0)
    for (std::size_t s = 0; s < weights.size(); ++s)
      if (s != r && weights[s] > 0.0 && (s + 2 == r || s == r + 2 || s + 1 == r || s == r + 1))
        ++expected;
  CHECK(check_exchange(g, comm) == expected * 7 * 6);
}

TEST_CASE("a halo exchange of a block without ghost layer brings each neighbour's face") {
  // The layout of a distributed operator's vectors, in complex numbers (the Helmholtz case).
  using complex = std::complex<double>;
  const solvent::Communicator& comm = solvent::world();
  const Index3 nodes{7, 6, 5};
  for (const Index3 split : all_splits(comm.size(), nodes)) {
    CAPTURE(split);
    const GridBlocks g(nodes, comm.size(), split);
    using Halo = solvent::HaloExchange<complex>;
    Halo halo(solvent::GridBlock{g, comm.rank(), &comm}, Halo::Layout::Block);
    const Index3 o = g.offset(comm.rank()), e = g.extent(comm.rank());
    auto value = [](int i, int j, int k) {
      return complex(global_value(i, j, k), -global_value(k, j, i));
    };
    std::vector<complex> block(halo.field_size());
    REQUIRE(block.size() == std::size_t(e[0]) * e[1] * e[2]);
    for (int k = 0; k < e[2]; ++k)
      for (int j = 0; j < e[1]; ++j)
        for (int i = 0; i < e[0]; ++i)
          block[std::size_t(i) + std::size_t(e[0]) * (j + std::size_t(e[1]) * k)] =
              value(o[0] + i, o[1] + j, o[2] + k);
    halo.pack(block);
    halo.transfer();
    CHECK_THROWS_AS(halo.unpack(block), solvent::Error);
    const auto neighbours = g.neighbours(comm.rank());
    const std::int64_t ext[3] = {e[0], e[1], e[2]};
    for (int face = 0; face < 6; ++face) {
      const auto ghost = halo.ghost(face);
      CHECK(ghost.size() ==
            (neighbours[face] < 0 ? 0u : std::size_t(solvent::face_nodes(ext, face))));
      for (std::size_t q = 0; q < ghost.size(); ++q) {
        std::int64_t at[3];
        solvent::face_node(ext, face, std::int64_t(q), 1, at);
        CHECK(ghost[q] == value(o[0] + int(at[0]), o[1] + int(at[1]), o[2] + int(at[2])));
      }
    }
  }
}

TEST_CASE("a halo exchange refuses a field of the wrong size") {
  const GridBlocks g({4, 4, 4}, 1);
  solvent::HaloExchange<double> halo(g, solvent::single_rank());
  CHECK(halo.field_size() == 6u * 6u * 6u);
  std::vector<double> field(5 * 6 * 6);
  CHECK_THROWS_AS(halo.exchange(field), solvent::Error);
}
