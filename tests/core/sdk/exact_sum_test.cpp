// ExactSum: the correctly rounded sum of any terms, whatever their order, grouping or split
// over ranks (simulated here by adding the digits of parts as Communicator::sum would).
#include <doctest/doctest.h>

#include <solvent/numerics/exact_sum.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using solvent::ExactSum;

namespace {

double exact_sum(const std::vector<double>& v) {
  ExactSum s;
  for (double x : v) s.add(x);
  return s.value();
}

}  // namespace

TEST_CASE("cancellation that floating-point addition loses is exact") {
  CHECK(exact_sum({1e16, 1.0, -1e16}) == 1.0);
  CHECK(exact_sum({1e300, 1e-300, -1e300}) == 1e-300);
  CHECK(exact_sum({0x1p-1074, 0x1p1000, -0x1p1000}) == 0x1p-1074);
  CHECK(exact_sum({-2.5, 1.0}) == -1.5);
  CHECK(exact_sum({}) == 0.0);
  CHECK(exact_sum({3.0, -3.0}) == 0.0);
}

TEST_CASE("the sum is the correctly rounded exact sum, in any order and grouping") {
  // Terms that are integer multiples of 2^-40 below 2^50: their exact sum fits an __int128,
  // which rounds to the reference double in one conversion.
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<std::int64_t> mantissa(-(std::int64_t{1} << 52),
                                                       std::int64_t{1} << 52);
  std::uniform_int_distribution<int> shift(-40, -3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> terms(1000);
    __int128 exact = 0;  // in units of 2^-40
    for (auto& t : terms) {
      const std::int64_t m = mantissa(rng);
      const int e = shift(rng);
      t = std::ldexp(static_cast<double>(m), e);
      exact += static_cast<__int128>(m) << (e + 40);
    }
    const double reference = std::ldexp(static_cast<double>(exact), -40);
    CHECK(exact_sum(terms) == reference);
    std::shuffle(terms.begin(), terms.end(), rng);
    CHECK(exact_sum(terms) == reference);
    // Split over four "ranks", each with its own digits, added as doubles.
    std::vector<double> total(ExactSum::digit_count + 1, 0.0);
    ExactSum merged;
    for (int rank = 0; rank < 4; ++rank) {
      ExactSum part;
      for (std::size_t i = rank; i < terms.size(); i += 4) part.add(terms[i]);
      const auto d = part.digits();
      for (std::size_t k = 0; k < d.size(); ++k) total[k] += d[k];
      merged.add(part);
    }
    CHECK(ExactSum::from_digits(total).value() == reference);
    CHECK(merged.value() == reference);
    // Digits accumulated outside the class, as a GPU's integer atomics do.
    std::vector<std::int64_t> digits(ExactSum::digit_count, 0);
    for (double t : terms) {
      int d = 0;
      std::int64_t parts[3] = {};
      REQUIRE(solvent::exact_sum_parts(t, d, parts));
      for (int k = 0; k < 3; ++k) digits[std::size_t(d + k)] += parts[k];
    }
    CHECK(ExactSum::from_accumulator(digits, 0.0).value() == reference);
  }
}

TEST_CASE("rounding to nearest, ties to even, decided by every digit") {
  // 1 + 2^-53 is a tie (rounds to 1, even); one more tiny term breaks it upwards.
  CHECK(exact_sum({1.0, 0x1p-53}) == 1.0);
  CHECK(exact_sum({1.0, 0x1p-53, 0x1p-1000}) == std::nextafter(1.0, 2.0));
  CHECK(exact_sum({1.0, 0x1p-53, -0x1p-1000}) == 1.0);
  CHECK(exact_sum({-1.0, -0x1p-53, -0x1p-1000}) == -std::nextafter(1.0, 2.0));
}

TEST_CASE("non-finite terms give the floating-point result") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(exact_sum({1.0, inf}) == inf);
  CHECK(std::isnan(exact_sum({inf, -inf})));
  CHECK(std::isnan(exact_sum({1.0, std::nan("")})));
}

TEST_CASE("from_digits refuses a wrong number of digits") {
  std::vector<double> few(3);
  CHECK_THROWS_WITH(ExactSum::from_digits(few), "ExactSum::from_digits: 3 digits, not 69");
}
