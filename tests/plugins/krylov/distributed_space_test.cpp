// The Krylov vector spaces on a stencil distributed over however many ranks mpirun started:
// for every split of the ranks, each rank's block of A x and every dot product equal, bit for
// bit, what one rank holding the whole grid computes, in real and complex arithmetic — the
// property that makes a distributed solve repeat the one-rank iterations exactly.
#include <doctest/doctest.h>

#include "ranks/communicator_world.hpp"

#include <solvent_krylov/host_space.hpp>

#include <solvent/grid/grid_blocks.hpp>
#include <solvent_test/grid_splits.hpp>

#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>
#include <vector>

using solvent::GridBlocks;
using solvent::Stencil7;
using solvent::krylov::HostSpace;
using Index3 = GridBlocks::Index3;
using solvent::test::all_splits;

namespace {

template <class T>
T sample(double seed) {
  const double re = std::sin(12.9898 * seed + 1.0) * 43758.5453;
  const double v = re - std::floor(re);
  if constexpr (std::is_same_v<T, double>)
    return v - 0.5;
  else
    return T(v - 0.5, std::cos(seed) * 0.25);
}

// Coefficient d of global node (i, j, k): irregular values, an inactive node here and there,
// and no coupling out of the grid (as an assembled model leaves none).
template <class T>
T coefficient(int d, const Index3& g, const Index3& n) {
  if ((g[0] * 7 + g[1] * 3 + g[2]) % 11 == 0) return T(0);  // inactive
  if (d > 0) {
    const int a = (d - 1) / 2;
    const bool upper = d % 2 == 0;
    if (upper ? g[a] + 1 == n[a] : g[a] == 0) return T(0);
  }
  return sample<T>(d * 1000.0 + g[0] + 31.0 * g[1] + 977.0 * g[2]) + T(d == 0 ? 4.0 : 0.0);
}

// The stencil of the block at `offset` with `extent` (the whole grid: offset 0, extent n).
template <class T>
Stencil7<T> stencil_of(const Index3& n, const Index3& offset, const Index3& extent) {
  Stencil7<T> s(extent[0], extent[1], extent[2]);
  for (int k = 0; k < extent[2]; ++k)
    for (int j = 0; j < extent[1]; ++j)
      for (int i = 0; i < extent[0]; ++i) {
        const Index3 g{offset[0] + i, offset[1] + j, offset[2] + k};
        for (int d = 0; d < 7; ++d) s.c[d][s.index(i, j, k)] = coefficient<T>(d, g, n);
      }
  return s;
}

template <class T>
std::vector<T> field_of(double seed, const Index3& n, const Index3& offset, const Index3& extent) {
  std::vector<T> v(std::size_t(extent[0]) * extent[1] * extent[2]);
  for (int k = 0; k < extent[2]; ++k)
    for (int j = 0; j < extent[1]; ++j)
      for (int i = 0; i < extent[0]; ++i)
        v[std::size_t(i) + std::size_t(extent[0]) * (j + std::size_t(extent[1]) * k)] =
            sample<T>(seed + offset[0] + i + n[0] * (offset[1] + j + n[1] * (offset[2] + k)));
  return v;
}

template <class T>
void check_space() {
  const solvent::Communicator& comm = solvent::world();
  if (const char* size = std::getenv("OMPI_COMM_WORLD_SIZE"))
    REQUIRE(comm.size() == std::atoi(size));
  const Index3 n{9, 7, 6};
  const Stencil7<T> whole = stencil_of<T>(n, {0, 0, 0}, n);
  const HostSpace<T> one(&whole, nullptr);
  const auto x_all = field_of<T>(1.0, n, {0, 0, 0}, n), y_all = field_of<T>(2.0, n, {0, 0, 0}, n);
  std::vector<T> ax_all(x_all.size());
  one.apply(x_all, ax_all);
  const std::vector<const std::vector<T>*> all_ys = {&y_all, &x_all, &ax_all};
  const auto dots_all = one.dots(x_all, all_ys);
  const std::vector<const std::vector<T>*> all_xs = {&ax_all, &y_all},
                                           all_pairs = {&y_all, &ax_all};
  const auto pairs_all = one.pair_dots(all_xs, all_pairs);
  REQUIRE(pairs_all[0] == one.dot(ax_all, y_all));

  for (const Index3 split : all_splits(comm.size(), n)) {
    CAPTURE(split);
    const GridBlocks blocks(n, comm.size(), split);
    const Index3 o = blocks.offset(comm.rank()), e = blocks.extent(comm.rank());
    Stencil7<T> mine = stencil_of<T>(n, o, e);
    mine.block =
        std::make_shared<const solvent::GridBlock>(solvent::GridBlock{blocks, comm.rank(), &comm});
    const HostSpace<T> space(&mine, nullptr);
    const auto x = field_of<T>(1.0, n, o, e), y = field_of<T>(2.0, n, o, e);
    std::vector<T> ax(x.size());
    space.apply(x, ax);
    int differ = 0;
    for (int k = 0; k < e[2]; ++k)
      for (int j = 0; j < e[1]; ++j)
        for (int i = 0; i < e[0]; ++i)
          differ += ax[mine.index(i, j, k)] != ax_all[whole.index(o[0] + i, o[1] + j, o[2] + k)];
    CHECK(differ == 0);
    // Reductions bitwise as one rank's where every rank holds whole lines of axis 1; to
    // rounding where a line is cut.
    const auto as_one_rank = [&](const std::vector<T>& got, const std::vector<T>& want) {
      REQUIRE(got.size() == want.size());
      for (std::size_t q = 0; q < got.size(); ++q) {
        if (split[0] == 1)
          CHECK(got[q] == want[q]);
        else
          CHECK(std::abs(got[q] - want[q]) <= 1e-13 * std::abs(want[q]));
      }
    };
    const std::vector<const std::vector<T>*> ys = {&y, &x, &ax};
    as_one_rank(space.dots(x, ys), dots_all);
    CHECK(space.norm(x) == one.norm(x_all));
    // Pairs of different vectors in one sum over the ranks.
    const std::vector<const std::vector<T>*> xs = {&ax, &y}, pair_ys = {&y, &ax};
    as_one_rank(space.pair_dots(xs, pair_ys), pairs_all);
  }
}

}  // namespace

TEST_CASE("a distributed real stencil applies and reduces as on one rank") {
  check_space<double>();
}

TEST_CASE("a distributed complex stencil applies and reduces as on one rank") {
  check_space<std::complex<double>>();
}
