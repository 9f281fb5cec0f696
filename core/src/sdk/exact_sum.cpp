#include <solvent/communicator.hpp>
#include <solvent/errors.hpp>
#include <solvent/numerics/exact_sum.hpp>

#include <cmath>
#include <string>

namespace solvent {
namespace {
constexpr std::int64_t base = std::int64_t{1} << 32;
}

void ExactSum::add(double v) {
  int d = 0;
  std::int64_t parts[3] = {};
  if (!exact_sum_parts(v, d, parts)) {
    nonfinite_ += v;
    return;
  }
  for (int k = 0; k < 3; ++k) digit_[static_cast<std::size_t>(d + k)] += parts[k];
  if (++pending_ == (std::int64_t{1} << 30)) normalise();
}

void ExactSum::add(const ExactSum& other) {
  ExactSum o = other;
  o.normalise();
  normalise();
  for (int i = 0; i < digit_count; ++i) digit_[i] += o.digit_[i];
  nonfinite_ += o.nonfinite_;
  normalise();
}

// Every digit but the last into [0, 2^32), the carry moved up; the last digit keeps the sign.
void ExactSum::normalise() {
  std::int64_t carry = 0;
  for (int i = 0; i + 1 < digit_count; ++i) {
    const std::int64_t v = digit_[i] + carry;
    carry = v >> 32;  // floor division: arithmetic shift
    digit_[i] = v - carry * base;
  }
  digit_[digit_count - 1] += carry;
  pending_ = 0;
}

double ExactSum::value() const {
  if (nonfinite_ != 0.0 || std::isnan(nonfinite_)) return nonfinite_;
  ExactSum s = *this;
  s.normalise();
  const bool negative = s.digit_[digit_count - 1] < 0;
  if (negative) {
    for (auto& d : s.digit_) d = -d;
    s.normalise();
  }
  int top = digit_count - 1;
  while (top >= 0 && s.digit_[top] == 0) --top;
  if (top < 0) return 0.0;
  // The top three digits (at most 96 bits) and, below them, one sticky bit saying whether
  // anything lower is non-zero: enough for the conversion to round as the whole would.
  unsigned __int128 head = 0;
  for (int k = top; k > top - 3; --k)
    head = (head << 32) | static_cast<std::uint64_t>(k >= 0 ? s.digit_[k] : 0);
  bool sticky = false;
  for (int k = top - 3; k >= 0; --k) sticky = sticky || s.digit_[k] != 0;
  head = (head << 1) | (sticky ? 1u : 0u);
  const double magnitude = std::ldexp(static_cast<double>(head), 32 * (top - 2) - 1 - 1074);
  return negative ? -magnitude : magnitude;
}

std::vector<double> ExactSum::digits() const {
  ExactSum s = *this;
  s.normalise();
  std::vector<double> out(digit_count + 1);
  for (int i = 0; i < digit_count; ++i) out[i] = static_cast<double>(s.digit_[i]);
  out[digit_count] = s.nonfinite_;
  return out;
}

ExactSum ExactSum::from_accumulator(std::span<const std::int64_t> digits, double nonfinite) {
  if (digits.size() != digit_count)
    throw Error("ExactSum::from_accumulator: " + std::to_string(digits.size()) + " digits, not " +
                std::to_string(digit_count));
  ExactSum s;
  for (int i = 0; i < digit_count; ++i) {
    // Carried one digit at a time, so no digit's own value can overflow on the way.
    s.digit_[i] += digits[i];
    s.normalise();
  }
  s.nonfinite_ = nonfinite;
  return s;
}

ExactSum ExactSum::from_digits(std::span<const double> digits) {
  if (digits.size() != digit_count + 1)
    throw Error("ExactSum::from_digits: " + std::to_string(digits.size()) + " digits, not " +
                std::to_string(digit_count + 1));
  ExactSum s;
  for (int i = 0; i < digit_count; ++i) s.digit_[i] = static_cast<std::int64_t>(digits[i]);
  s.nonfinite_ = digits[digit_count];
  s.normalise();
  return s;
}

void sum_over_ranks(std::span<ExactSum> sums, const Communicator& comm) {
  if (comm.size() == 1) return;
  std::vector<double> digits;
  for (const auto& s : sums) {
    const auto d = s.digits();
    digits.insert(digits.end(), d.begin(), d.end());
  }
  comm.sum(std::span<double>(digits));
  const std::size_t width = ExactSum::digit_count + 1;
  for (std::size_t p = 0; p < sums.size(); ++p)
    sums[p] = ExactSum::from_digits(std::span<const double>(digits).subspan(p * width, width));
}

}  // namespace solvent
