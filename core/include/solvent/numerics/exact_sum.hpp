#pragma once
// An exact sum of doubles: every term is added without rounding into a fixed-point number
// wide enough for the whole double range, and the sum is rounded to a double once, at the
// end. The result is the correctly rounded sum of the terms whatever their order or
// grouping — over threads, blocks and ranks alike — which no floating-point summation
// gives. A distributed reduction adds each rank's digits() with Communicator::sum (the digits
// are integers small enough to add exactly as doubles) and rounds with from_digits().
//
// (Written here, after Kulisch's long accumulator, because no Debian library offers an
// order-independent sum; the reproducible BLAS of Demmel and Nguyen is not packaged.)
#include <solvent/device/host_device.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace solvent {

class Communicator;

// The pieces of v in the accumulator's digits (below): v = sum_k parts[k] 2^(32 (digit + k)
// - 1074), |parts[k]| < 2^32. False for an infinity or a NaN. Shared by ExactSum::add and
// device code that accumulates digits itself (with integer atomics, which add exactly in
// any order).
SOLVENT_HD inline bool exact_sum_parts(double v, int& digit, std::int64_t (&parts)[3]) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  if (exponent == 0x7ff) return false;
  std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  // v = mantissa 2^(position - 1074): subnormals have no implicit bit and the exponent of
  // the smallest normals.
  const int position = exponent == 0 ? 0 : exponent - 1;
  if (exponent != 0) mantissa |= std::uint64_t{1} << 52;
  digit = position / 32;
  const int shift = position % 32;
  // mantissa 2^shift has at most 85 bits: three digits.
  const std::uint64_t low = 0xffffffffu;
  std::int64_t p[3] = {static_cast<std::int64_t>((mantissa << shift) & low),
                       static_cast<std::int64_t>((mantissa >> (32 - shift)) & low),
                       static_cast<std::int64_t>(shift == 0 ? 0 : mantissa >> (64 - shift))};
  const bool negative = (bits >> 63) != 0;
  for (int k = 0; k < 3; ++k) parts[k] = negative ? -p[k] : p[k];
  return true;
}

class ExactSum {
 public:
  // Bit b of the fixed-point number weighs 2^(b - 1074) (1074: the smallest double's
  // exponent); it is kept in base-2^32 digits held in 64-bit integers, with room to add
  // 2^31 terms before carries are propagated.
  static constexpr int digit_count = 68;

  void add(double v);
  void add(const ExactSum& other);
  // The correctly rounded sum; NaN or an infinity where a term was one.
  double value() const;

  // The sum as digit_count + 1 doubles (each digit, then the sum of the non-finite terms),
  // for adding over ranks: after Communicator::sum of every rank's digits, from_digits()
  // gives the exact total rounded once, the same on every rank and for any number of ranks.
  std::vector<double> digits() const;
  static ExactSum from_digits(std::span<const double> digits);
  // digit_count digits accumulated elsewhere from exact_sum_parts (any integer values whose
  // true sums fit 64 bits), and the sum of the non-finite terms.
  static ExactSum from_accumulator(std::span<const std::int64_t> digits, double nonfinite);

 private:
  void normalise();

  std::array<std::int64_t, digit_count> digit_{};
  std::int64_t pending_ = 0;  // terms added since the last carry propagation
  double nonfinite_ = 0.0;    // the sum of the infinite and NaN terms
};

// Each sums[p] becomes the exact total of the ranks' sums[p], the same on every rank: their
// digits() added with comm.sum, then from_digits().
void sum_over_ranks(std::span<ExactSum> sums, const Communicator& comm);

}  // namespace solvent
