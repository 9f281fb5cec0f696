// Sparse matrices over ranks: on however many ranks mpirun started, Scotch's partition is the
// same on every rank and cuts fewer couplings than contiguous ranges; a distributed matrix's
// product (ghosts exchanged) equals the whole matrix's, bit for bit where the sums are
// exact; the residual and the gathered vector agree with one rank's; empty ranks and ranks
// without ghosts take part; the core refuses to convert a distributed matrix; rows and vectors
// scattered from rank 0 equal the rows each rank takes from the whole matrix; a failure of rank
// 0's work (from_root) is thrown on every rank.
#include <doctest/doctest.h>

#include "ranks/communicator_world.hpp"

#include <solvent/conversion.hpp>
#include <solvent/errors.hpp>
#include <solvent/operator.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using solvent::complex;
using solvent::CsrMatrix;

namespace {

// The five-point Laplacian of an nx x ny grid plus `shift` on the diagonal, its unknowns
// numbered in a shuffled order (a fixed seed: the same on every rank), so that contiguous
// index ranges cut many couplings and a graph partitioner few.
template <class T>
CsrMatrix<T> shuffled_laplacian(int nx, int ny, T shift) {
  const int n = nx * ny;
  std::vector<int> label(static_cast<std::size_t>(n));
  std::iota(label.begin(), label.end(), 0);
  std::mt19937 random(7);
  for (int i = n - 1; i > 0; --i)  // Fisher-Yates by hand: std::shuffle's order is unspecified
    std::swap(label[static_cast<std::size_t>(i)],
              label[static_cast<std::size_t>(random() % static_cast<unsigned>(i + 1))]);
  std::vector<std::vector<std::pair<int, T>>> rows(static_cast<std::size_t>(n));
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      auto& row = rows[static_cast<std::size_t>(label[static_cast<std::size_t>(x + nx * y)])];
      row.emplace_back(label[static_cast<std::size_t>(x + nx * y)], T(4) + shift);
      const auto couple = [&](int xx, int yy) {
        if (xx >= 0 && xx < nx && yy >= 0 && yy < ny)
          row.emplace_back(label[static_cast<std::size_t>(xx + nx * yy)], T(-1));
      };
      couple(x - 1, y);
      couple(x + 1, y);
      couple(x, y - 1);
      couple(x, y + 1);
    }
  CsrMatrix<T> a;
  a.rows = a.cols = static_cast<std::size_t>(n);
  a.row_ptr.push_back(0);
  for (auto& row : rows) {
    std::sort(row.begin(), row.end(),
              [](const auto& p, const auto& q) { return p.first < q.first; });
    for (const auto& [j, v] : row) {
      a.col_idx.push_back(j);
      a.values.push_back(v);
    }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.col_idx.size()));
  }
  return a;
}

template <class T>
std::vector<T> product(const CsrMatrix<T>& a, const std::vector<T>& x) {
  std::vector<T> y(a.rows);
  solvent::apply(solvent::Operator(a), std::span<const T>(x), std::span<T>(y));
  return y;
}

template <class T>
std::vector<T> mine(const solvent::RowDistribution& d, const std::vector<T>& all) {
  std::vector<T> out;
  for (const auto i : d.owned) out.push_back(all[static_cast<std::size_t>(i)]);
  return out;
}

}  // namespace

TEST_CASE("Scotch's partition: the same on every rank, balanced, fewer cut couplings than ranges") {
  const solvent::Communicator& comm = solvent::world();
  const auto a = shuffled_laplacian<double>(16, 12, 0.0);
  const auto p = solvent::partition_rows(a.row_ptr, a.col_idx, comm);
  REQUIRE(p.owner.size() == a.rows);
  const std::string bytes(reinterpret_cast<const char*>(p.owner.data()),
                          p.owner.size() * sizeof(int));
  for (const auto& other : comm.gather_all(bytes)) CHECK(other == bytes);
  const auto naive = solvent::contiguous_rows(a.row_ptr, a.col_idx, comm.size());
  if (comm.size() == 1) {
    CHECK(p.edge_cut == 0);
    CHECK(naive.edge_cut == 0);
    return;
  }
  for (int r = 0; r < comm.size(); ++r) CHECK(std::count(p.owner.begin(), p.owner.end(), r) > 0);
  CHECK(p.imbalance <= 1.1);
  // A 16 x 12 grid cut into 2 or 4 pieces: about 12 or 28 couplings; shuffled ranges cut
  // about half or three quarters of the 360.
  MESSAGE("edge cut over ", comm.size(), " ranks: scotch ", p.edge_cut, ", contiguous ",
          naive.edge_cut);
  CHECK(p.edge_cut * 4 < naive.edge_cut);
}

TEST_CASE("Scotch's partition is the same from call to call (a rerun splits the rows alike)") {
  const solvent::Communicator& comm = solvent::world();
  // Large enough that Scotch's coarsening makes random choices.
  const auto a = shuffled_laplacian<double>(150, 120, 0.0);
  const auto first = solvent::partition_rows(a.row_ptr, a.col_idx, comm);
  for (int again = 0; again < 3; ++again) {
    const auto p = solvent::partition_rows(a.row_ptr, a.col_idx, comm);
    CHECK(p.edge_cut == first.edge_cut);
    CHECK(p.owner == first.owner);
  }
}

TEST_CASE("a distributed product equals the whole matrix's; residual and gather agree") {
  const solvent::Communicator& comm = solvent::world();
  const auto a = shuffled_laplacian<double>(9, 7, 1.0);
  const auto p = solvent::partition_rows(a.row_ptr, a.col_idx, comm);
  const auto local = solvent::distribute(a, p.owner, comm);
  const auto& d = *local.distribution;
  CHECK(local.rows == d.rows());
  CHECK(local.cols == d.columns());
  CHECK(local.distributed() == (comm.size() > 1));
  // The ghosts hold their global numbers after an exchange.
  std::vector<double> ids(d.columns());
  for (std::size_t i = 0; i < d.rows(); ++i) ids[i] = static_cast<double>(d.owned[i]);
  solvent::GhostExchange<double>(local.distribution).exchange(ids);
  for (std::size_t g = 0; g < d.ghosts.size(); ++g)
    CHECK(ids[d.rows() + g] == static_cast<double>(d.ghosts[g]));
  // Small integers: every sum is exact, whatever order a rank adds in.
  std::vector<double> x(a.rows);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7) % 11) - 5.0;
  const auto y = product(a, x);
  const auto y_mine = product(local, mine(d, x));
  CHECK(y_mine == mine(d, y));
  CHECK(solvent::gather_rows<double>(d, y_mine) == y);
  // A residual of another order of summation: to rounding.
  std::vector<double> b(a.rows);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(static_cast<double>(i));
  const double whole = solvent::relative_residual(solvent::Operator(a), b, x);
  const double split = solvent::relative_residual(solvent::Operator(local), mine(d, b), mine(d, x));
  CHECK(split == doctest::Approx(whole).epsilon(1e-14));
  if (comm.size() > 1) {
    try {
      (void)solvent::convert(solvent::Operator(local), solvent::OperatorKind::Dense, {});
      FAIL("a distributed matrix was converted");
    } catch (const solvent::UnsupportedOperator& e) {
      CHECK(std::string(e.what()) ==
            "a csr operator distributed over " + std::to_string(comm.size()) +
                " ranks cannot be converted to dense: each rank holds only its rows; use a "
                "solver that takes the csr form");
    }
  }
}

TEST_CASE("complex values, empty ranks and ranks without ghosts") {
  const solvent::Communicator& comm = solvent::world();
  // Three rows over the ranks in ranges: over four ranks the last has none.
  auto a = shuffled_laplacian<complex>(3, 1, complex(0.0, 1.0));
  const auto ranges = solvent::contiguous_rows(a.row_ptr, a.col_idx, comm.size());
  const auto local = solvent::distribute(a, ranges.owner, comm);
  const std::vector<complex> x{{1, 2}, {-3, 0.5}, {2, -1}};
  CHECK(solvent::gather_rows<complex>(
            *local.distribution, product(local, mine(*local.distribution, x))) == product(a, x));
  if (comm.size() == 4) CHECK(local.rows == (comm.rank() == 3 ? 0u : 1u));
  // Block diagonal: no rank couples to another, so none has a ghost or a peer.
  CsrMatrix<double> diagonal;
  diagonal.rows = diagonal.cols = 5;
  for (int i = 0; i <= 5; ++i) diagonal.row_ptr.push_back(i);
  diagonal.col_idx = {0, 1, 2, 3, 4};
  diagonal.values = {1, 2, 3, 4, 5};
  const auto blocks = solvent::contiguous_rows(diagonal.row_ptr, diagonal.col_idx, comm.size());
  CHECK(blocks.edge_cut == 0);
  const auto alone = solvent::distribute(diagonal, blocks.owner, comm);
  CHECK(alone.distribution->ghosts.empty());
  CHECK(alone.distribution->peers.empty());
  const std::vector<double> ones(5, 1.0);
  CHECK(solvent::gather_rows<double>(*alone.distribution,
                                     product(alone, mine(*alone.distribution, ones))) ==
        diagonal.values);
}

TEST_CASE("an overlapping subdomain: one and two layers of the neighbours' rows") {
  const solvent::Communicator& comm = solvent::world();
  // A chain of 24 unknowns (tridiagonal) in contiguous ranges: layer k of a middle rank's
  // subdomain is the k-th row beyond each end of its range.
  CsrMatrix<double> chain;
  const int n = 24;
  chain.rows = chain.cols = n;
  chain.row_ptr.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
      chain.col_idx.push_back(j);
      chain.values.push_back(i == j ? 2.0 + i : -1.0 - 0.01 * (i + j));
    }
    chain.row_ptr.push_back(static_cast<std::int32_t>(chain.col_idx.size()));
  }
  const auto ranges = solvent::contiguous_rows(chain.row_ptr, chain.col_idx, comm.size());
  const auto local = solvent::distribute(chain, ranges.owner, comm);
  const auto& d = *local.distribution;
  for (int layers : {0, 1, 2}) {
    const auto sub = solvent::overlap_subdomain(local, layers);
    const std::int64_t first = d.owned.front(), last = d.owned.back();
    std::vector<std::int64_t> expected;  // the rows beyond each end, by owner: lower first
    for (std::int64_t k = layers; k >= 1; --k)
      if (first - k >= 0) expected.push_back(first - k);
    for (std::int64_t k = 1; k <= layers; ++k)
      if (last + k < n) expected.push_back(last + k);
    const std::vector<std::int64_t> overlap_rows =
        sub.overlap ? sub.overlap->ghosts : std::vector<std::int64_t>{};
    CHECK(overlap_rows == (comm.size() > 1 ? expected : std::vector<std::int64_t>{}));
    // The subdomain matrix is the global one restricted to the subdomain's rows.
    std::vector<std::int64_t> global(d.owned.begin(), d.owned.end());
    global.insert(global.end(), overlap_rows.begin(), overlap_rows.end());
    REQUIRE(sub.matrix.rows == global.size());
    for (std::size_t i = 0; i < global.size(); ++i)
      for (auto p = sub.matrix.row_ptr[i]; p < sub.matrix.row_ptr[i + 1]; ++p) {
        const auto gi = global[i], gj = global[static_cast<std::size_t>(sub.matrix.col_idx[p])];
        CHECK(sub.matrix.values[p] == (gi == gj ? 2.0 + gi : -1.0 - 0.01 * (gi + gj)));
      }
    if (!sub.overlap) continue;
    // The exchange brings the overlap rows' values from their owners.
    std::vector<double> x(sub.overlap->columns());
    for (std::size_t i = 0; i < d.rows(); ++i) x[i] = 10.0 * static_cast<double>(d.owned[i]);
    solvent::GhostExchange<double>(sub.overlap).exchange(x);
    for (std::size_t g = 0; g < overlap_rows.size(); ++g)
      CHECK(x[d.rows() + g] == 10.0 * static_cast<double>(overlap_rows[g]));
  }
}

TEST_CASE("rows and vectors scattered from rank 0 equal the rows every rank takes itself") {
  const solvent::Communicator& comm = solvent::world();
  // Complex values, rows dealt by Scotch on rank 0 alone, as a model that reads a file there.
  const auto a = shuffled_laplacian<complex>(7, 5, complex(0.5, 1.0));
  const auto p = solvent::partition_rows(a.row_ptr, a.col_idx, comm.size());
  const std::string bytes(reinterpret_cast<const char*>(p.owner.data()),
                          p.owner.size() * sizeof(int));
  const std::string rank0_owner = solvent::from_root(comm, 0, [&] { return bytes; });
  std::vector<int> owner(a.rows);
  REQUIRE(rank0_owner.size() == owner.size() * sizeof(int));
  std::memcpy(owner.data(), rank0_owner.data(), rank0_owner.size());
  const auto taken = solvent::distribute(a, owner, comm);
  const auto scattered =
      solvent::scatter_rows(comm.rank() == 0 ? a : CsrMatrix<complex>{}, owner, 0, comm);
  CHECK(scattered.rows == taken.rows);
  CHECK(scattered.cols == taken.cols);
  CHECK(scattered.row_ptr == taken.row_ptr);
  CHECK(scattered.col_idx == taken.col_idx);
  CHECK(scattered.values == taken.values);
  CHECK(scattered.distribution->owned == taken.distribution->owned);
  CHECK(scattered.distribution->ghosts == taken.distribution->ghosts);
  std::vector<complex> x(a.rows);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = complex(static_cast<double>(i), -1.0);
  CHECK(solvent::scatter_vector<complex>(comm.rank() == 0 ? std::span<const complex>(x)
                                                          : std::span<const complex>(),
                                         owner, 0, comm) == mine(*taken.distribution, x));
}

TEST_CASE("a failure of rank 0's work is thrown on every rank, of the same type and message") {
  const solvent::Communicator& comm = solvent::world();
  const auto fails = [&](const auto& error) {
    return [&] {
      (void)solvent::from_root(comm, 0, [&]() -> std::string { throw error; });
    };
  };
  CHECK_THROWS_WITH_AS(fails(solvent::InputError("m.mtx:4: non-numeric entry 'x'"))(),
                       "m.mtx:4: non-numeric entry 'x'", solvent::InputError);
  try {
    fails(solvent::ConfigError({"first problem", "second problem"}))();
    FAIL("no ConfigError");
  } catch (const solvent::ConfigError& e) {
    CHECK(e.problems() == std::vector<std::string>{"first problem", "second problem"});
  }
  CHECK_THROWS_WITH_AS(fails(std::runtime_error("not a solvent error"))(), "not a solvent error",
                       std::runtime_error);
  // The ranks are still in step: the next broadcast is rank 0's bytes.
  CHECK(solvent::from_root(comm, 0, [] { return std::string("ok"); }) == "ok");
}
