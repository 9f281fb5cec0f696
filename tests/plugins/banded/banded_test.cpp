// The banded solver on its own: the conformance checks of every linear solver, and its
// refusals. Its agreement with the dense solvers over whole trajectories is tested with the
// model it was built for, in tests/models/angiogenesis_1d.
#include <solvent/numerics/band_lu.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// Spreads v by `stride` (entry e at [e stride]), as the interleaved members' arrays are.
template <class T>
std::vector<T> spread(const std::vector<T>& v, std::size_t stride) {
  std::vector<T> out(v.size() * stride);
  for (std::size_t e = 0; e < v.size(); ++e) out[e * stride] = v[e];
  return out;
}

// A band in gbtrf's storage (lu, factored in place) with what band_lu_substitute reads, its
// arrays spread by `stride`.
struct StridedFactors {
  std::vector<lapack_int> ipiv;  // gbtrf's, unspread
  std::vector<double> lu_s, inverse_s;
  std::vector<int> ipiv_s, reach_s;
  solvent::BandLu<double> f;
};

StridedFactors factor(std::vector<double>& lu, std::size_t n, std::size_t kl, std::size_t ku,
                      std::size_t stride) {
  const std::size_t ldab = 2 * kl + ku + 1;
  StridedFactors s;
  s.ipiv.resize(n);
  REQUIRE(LAPACKE_dgbtrf(LAPACK_COL_MAJOR, lapack_int(n), lapack_int(n), lapack_int(kl),
                         lapack_int(ku), lu.data(), lapack_int(ldab), s.ipiv.data()) == 0);
  std::vector<double> inverse(n);
  std::vector<int> reach(n);
  solvent::band_lu_prepare(lu.data(), ldab, n, kl, ku, inverse.data(), reach.data());
  s.lu_s = spread(lu, stride);
  s.ipiv_s = spread(std::vector<int>(s.ipiv.begin(), s.ipiv.end()), stride);
  s.reach_s = spread(reach, stride);
  s.inverse_s = spread(inverse, stride);
  s.f = {s.lu_s.data(),      ldab,  n, kl, ku, s.ipiv_s.data(), s.reach_s.data(),
         s.inverse_s.data(), stride};
  return s;
}

// A random band in gbtrf's storage (ldab = 2 kl + ku + 1): every fifth coupling absent,
// diagonals weak every seventh row so that gbtrf swaps rows, column `zero` (none if n or more)
// all zero, the kl fill-in rows set to `fill` (gbtrf sets them itself).
std::vector<double> random_band(std::size_t n, std::size_t kl, std::size_t ku,
                                std::mt19937_64& random, std::size_t zero = SIZE_MAX,
                                double fill = 0.0) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const std::size_t ldab = 2 * kl + ku + 1;
  std::vector<double> band(ldab * n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t r = 0; r < kl; ++r) band[j * ldab + r] = fill;
    for (std::size_t i = j >= ku ? j - ku : 0; i < std::min(n, j + kl + 1); ++i) {
      const double v = (i + 2 * j) % 5 == 0 && i != j ? 0.0 : value(random);
      band[j * ldab + kl + ku + i - j] = j == zero ? 0.0
                                         : i != j  ? v
                                                   : (i % 7 == 3 ? 0.05 + 0.01 * v : 4.0 + v);
    }
  }
  return band;
}

}  // namespace

TEST_CASE("banded passes the linear-solver conformance checks") {
  solvent::testkit::LinearSolverChecks checks;
  checks.kind = solvent::OperatorKind::Banded;
  checks.complex = true;
  for (bool reuse : {true, false}) {
    CAPTURE(reuse);
    solvent::testkit::check_linear_solver("banded", {{"reuse_factorization", reuse}}, checks);
  }
}

TEST_CASE("banded refuses what it cannot take, with a clear message") {
  auto solver = solvent::testkit::make_linear_solver("banded");
  const auto singular =
      std::make_shared<const solvent::Operator>(solvent::BandedMatrix<double>(3, 1, 1));
  CHECK_THROWS_WITH_AS(solver->setup(singular),
                       "banded: singular matrix: gbtrf found U(1,1) = 0 at elimination step 1 of 3",
                       solvent::SolverError);
  solvent::BandedMatrix<double> identity(3, 1, 1);
  for (std::size_t i = 0; i < 3; ++i) identity.at(i, i) = 1.0;
  solver->setup(std::make_shared<const solvent::Operator>(identity));
  std::vector<double> x(3);
  std::vector<double> short_b(2, 1.0);
  CHECK_THROWS_WITH_AS(solver->solve(std::span<const double>(short_b), std::span<double>(x)),
                       "vectors of length 2 (b) and 3 (x) for an operator of 3 rows",
                       solvent::SolverError);
}

// The substitution that reads a group of rows ahead (what the GPU's batched members use) must
// repeat the row-at-a-time substitution's bits: same arithmetic, same order. Random bands with
// row interchanges (weak diagonals), U rows reaching past two entries (kl = 3), no L at all
// (kl = 0: upper triangular), systems shorter than a group, zero couplings (the
// chain-breaking branch), and members interleaved by a stride; each against LAPACK's gbtrs.
TEST_CASE("band_lu_substitute gives the same bits whatever rows it reads ahead") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  int systems_with_interchanges = 0;
  for (std::size_t n : {1u, 2u, 5u, 9u, 17u, 64u, 203u})
    for (std::size_t kl : {0u, 1u, 2u, 3u})
      for (std::size_t ku : {0u, 2u, 4u})
        for (std::size_t stride : {1u, 3u}) {
          CAPTURE(n);
          CAPTURE(kl);
          CAPTURE(ku);
          CAPTURE(stride);
          const std::size_t ldab = 2 * kl + ku + 1;
          std::vector<double> lu = random_band(n, kl, ku, random);
          const StridedFactors s = factor(lu, n, kl, ku, stride);
          const auto& ipiv = s.ipiv;
          const auto& f = s.f;
          for (std::size_t i = 0; i < n; ++i)
            systems_with_interchanges += ipiv[i] != lapack_int(i + 1);
          std::vector<double> b(n);
          for (auto& v : b) v = value(random);
          auto one = spread(b, stride), eight = spread(b, stride), three = spread(b, stride);
          solvent::band_lu_substitute<1>(f, one.data());
          solvent::band_lu_substitute<8>(f, eight.data());
          solvent::band_lu_substitute<3>(f, three.data());
          CHECK(std::memcmp(one.data(), eight.data(), one.size() * sizeof(double)) == 0);
          CHECK(std::memcmp(one.data(), three.data(), one.size() * sizeof(double)) == 0);
          // And it solved the system: the row-at-a-time result against gbtrs.
          std::vector<double> reference = b;
          REQUIRE(LAPACKE_dgbtrs(LAPACK_COL_MAJOR, 'N', lapack_int(n), lapack_int(kl),
                                 lapack_int(ku), 1, lu.data(), lapack_int(ldab), ipiv.data(),
                                 reference.data(), lapack_int(n)) == 0);
          for (std::size_t e = 0; e < n; ++e)
            CHECK(one[e * stride] == doctest::Approx(reference[e]).epsilon(1e-9));
        }
  CHECK(systems_with_interchanges > 20);
}

// band_lu_factor is gbtrf's unblocked algorithm written out: the same pivots and info as
// LAPACK's gbtrf on random bands with interchanges, zero couplings, garbage in the fill-in
// rows (gbtrf sets them), and singular bands; the factors to rounding (OpenBLAS's kernels may
// fuse a multiply-add the written-out loop does not).
TEST_CASE("band_lu_factor factors as LAPACK's gbtrf, pivots and singular columns alike") {
  std::mt19937_64 random(11);
  int interchanges = 0, singular = 0;
  for (std::size_t n : {1u, 2u, 5u, 17u, 203u})
    for (std::size_t kl : {0u, 1u, 2u, 3u})
      for (std::size_t ku : {0u, 1u, 4u})
        for (bool zero_column : {false, true}) {
          CAPTURE(n);
          CAPTURE(kl);
          CAPTURE(ku);
          CAPTURE(zero_column);
          const std::size_t ldab = 2 * kl + ku + 1;
          const std::vector<double> band =
              random_band(n, kl, ku, random, zero_column ? n / 2 : n, 7.0);
          std::vector<double> ours = band, theirs = band;
          std::vector<int> our_pivots(n);
          std::vector<lapack_int> their_pivots(n);
          const int info = solvent::band_lu_factor(ours.data(), ldab, n, kl, ku, our_pivots.data());
          const lapack_int their_info =
              LAPACKE_dgbtrf(LAPACK_COL_MAJOR, lapack_int(n), lapack_int(n), lapack_int(kl),
                             lapack_int(ku), theirs.data(), lapack_int(ldab), their_pivots.data());
          CHECK(info == their_info);
          singular += info != 0;
          double largest = 0.0, difference = 0.0;
          for (std::size_t e = 0; e < ours.size(); ++e) {
            largest = std::max(largest, std::abs(theirs[e]));
            difference = std::max(difference, std::abs(ours[e] - theirs[e]));
          }
          CHECK(difference <= 1e-13 * largest);
          for (std::size_t j = 0; j < n; ++j) {
            CHECK(our_pivots[j] == their_pivots[j]);
            interchanges += our_pivots[j] != int(j + 1);
          }
        }
  CHECK(interchanges > 20);
  CHECK(singular > 10);
  // A NaN in the band: refused as LAPACKE refuses it, argument 6.
  std::vector<double> band(5 * 4, 1.0);
  band[2 * 5 + 3] = std::nan("");
  std::vector<int> pivots(4);
  CHECK(solvent::band_lu_factor(band.data(), 5, 4, 1, 2, pivots.data()) == -6);
}

TEST_CASE("banded estimates the condition of what it factors (gbcon) as a fact") {
  // Upper bidiagonal (kl = 0, ku = 1), 1 on the diagonal: -100 above it makes A^-1 hold 100^39,
  // -0.5 a well-posed system. The estimate is the band's own, agreeing with the dense one's
  // order of magnitude (tests/plugins/dense).
  for (const double above : {-0.5, -100.0}) {
    CAPTURE(above);
    solvent::BandedMatrix<double> a(40, 0, 1);
    for (std::size_t i = 0; i < 40; ++i) {
      a.at(i, i) = 1.0;
      if (i + 1 < 40) a.at(i, i + 1) = above;
    }
    auto solver = solvent::testkit::make_linear_solver("banded");
    solver->setup(std::make_shared<const solvent::Operator>(a));
    double rcond = -1.0;
    for (const auto& [k, v] : solver->facts())
      if (k == "rcond_estimate") rcond = std::stod(v);
    if (above == -0.5) {
      CHECK(rcond > 0.1);
      CHECK(rcond <= 1.0);
    } else {
      CHECK(rcond > 0.0);
      CHECK(rcond < 1e-70);
    }
  }
}

TEST_CASE("banded names an elimination that overflows double precision") {
  // Wilkinson's matrix of growth 2^(n-1) with last column 5e307: finite entries, and partial
  // pivoting doubles that column at each step to 2e308, beyond the largest double.
  const double c = 5e307;
  solvent::BandedMatrix<double> w(3, 2, 2);
  const double rows[3][3] = {{1, 0, c}, {-1, 1, c}, {-1, -1, c}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) w.at(i, j) = rows[i][j];
  auto solver = solvent::testkit::make_linear_solver("banded");
  CHECK_THROWS_WITH_AS(solver->setup(std::make_shared<const solvent::Operator>(w)),
                       "banded: the elimination overflowed (a factor is infinite): the matrix's "
                       "entries are too large for double precision; rescale the system",
                       solvent::SolverError);
}

// A block-diagonal band (blocks of random sizes, row interchanges inside them): band_splits
// finds exactly the blocks' borders, gbtrf's pivots stay inside each block, and substituting
// the blocks apart (as the GPU's threads of one member do) gives the whole substitution's
// values, with any rows read ahead.
TEST_CASE("band_lu_substitute_rows solves the blocks band_splits finds apart") {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> value(0.1, 1.0);
  std::uniform_int_distribution<std::size_t> block_size(1, 40);
  int interchanges = 0;
  for (std::size_t kl : {0u, 1u, 2u, 3u})
    for (std::size_t ku : {0u, 1u, 2u, 4u})
      for (std::size_t stride : {1u, 3u}) {
        CAPTURE(kl);
        CAPTURE(ku);
        CAPTURE(stride);
        std::vector<std::size_t> borders{0};
        while (borders.back() < 300) borders.push_back(borders.back() + block_size(random));
        const std::size_t n = borders.back(), ldab = 2 * kl + ku + 1;
        std::vector<std::size_t> block_of(n);
        for (std::size_t k = 0; k + 1 < borders.size(); ++k)
          for (std::size_t i = borders[k]; i < borders[k + 1]; ++i) block_of[i] = k;
        std::vector<double> lu(ldab * n, 0.0);
        for (std::size_t j = 0; j < n; ++j)
          for (std::size_t i = j >= ku ? j - ku : 0; i < std::min(n, j + kl + 1); ++i)
            if (block_of[i] == block_of[j])
              lu[j * ldab + kl + ku + i - j] = i != j ? value(random) : (i % 5 == 2 ? 0.01 : 3.0);
        // A diagonal matrix splits at every row; otherwise exactly at the blocks' borders.
        std::vector<std::size_t> splits(borders.begin() + 1, borders.end() - 1);
        if (kl + ku == 0) {
          splits.clear();
          for (std::size_t p = 1; p < n; ++p) splits.push_back(p);
        }
        CHECK(solvent::band_splits(lu.data(), ldab, n, kl, ku) == splits);
        const StridedFactors s = factor(lu, n, kl, ku, stride);
        for (std::size_t i = 0; i < n; ++i) {
          CHECK(block_of[std::size_t(s.ipiv[i] - 1)] == block_of[i]);
          interchanges += s.ipiv[i] != lapack_int(i + 1);
        }
        std::vector<double> b(n);
        for (auto& v : b) v = value(random) - 0.5;
        auto whole = spread(b, stride), apart = spread(b, stride);
        solvent::band_lu_substitute<1>(s.f, whole.data());
        for (std::size_t k = 0; k + 1 < borders.size(); ++k)
          solvent::band_lu_substitute_rows<8>(s.f, apart.data(), borders[k], borders[k + 1]);
        CHECK(whole == apart);
      }
  CHECK(interchanges > 20);
}
