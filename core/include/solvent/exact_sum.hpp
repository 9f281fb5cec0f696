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
#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace solvent {

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

 private:
  void normalise();

  std::array<std::int64_t, digit_count> digit_{};
  std::int64_t pending_ = 0;  // terms added since the last carry propagation
  double nonfinite_ = 0.0;    // the sum of the infinite and NaN terms
};

}  // namespace solvent
