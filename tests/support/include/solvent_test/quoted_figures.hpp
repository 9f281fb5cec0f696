#pragma once
// A figure that a document or a config comment quotes from a run, read back so that the test
// running the same case compares it with the run's value and the text cannot drift from the
// program (docs/architecture.md, "Command line").
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace solvent::test {

inline std::string quoted_file(const std::filesystem::path& file) {
  std::ifstream f(file);
  REQUIRE_MESSAGE(f, "cannot read " << file.string());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The text `file` quotes between `before` and the next `after` (a message, a line of output).
inline std::string quoted_text(const std::filesystem::path& file, const std::string& before,
                               const std::string& after) {
  const auto text = quoted_file(file);
  const auto at = text.find(before);
  REQUIRE_MESSAGE(at != std::string::npos, file.string() << " lacks: " << before);
  const auto from = at + before.size(), to = text.find(after, from);
  REQUIRE_MESSAGE(to != std::string::npos, file.string()
                                               << " lacks '" << after << "' after: " << before);
  return text.substr(from, to - from);
}

// The figure `file` writes right after `before` (digits, '.', 'e', '-'; a full stop that
// ends the sentence is not part of it).
inline std::string quoted_figure(const std::filesystem::path& file, const std::string& before) {
  const auto text = quoted_file(file);
  const auto at = text.find(before);
  REQUIRE_MESSAGE(at != std::string::npos, file.string() << " lacks: " << before);
  const auto from = at + before.size();
  auto figure = text.substr(from, text.find_first_not_of("0123456789.e-", from) - from);
  while (!figure.empty() && (figure.back() == '.' || figure.back() == '-')) figure.pop_back();
  REQUIRE_MESSAGE(!figure.empty(), file.string() << " quotes no figure after: " << before);
  return figure;
}

// `value` written as the figure `like` is: with as many digits after the point, in the same
// notation (1.2e-2, not printf's 1.2e-02), or as a whole number.
inline std::string written_like(double value, const std::string& like) {
  const auto e = like.find('e');
  const auto point = like.find('.');
  const auto mantissa_end = e == std::string::npos ? like.size() : e;
  const int digits = point == std::string::npos || point > mantissa_end
                         ? 0
                         : static_cast<int>(mantissa_end - point - 1);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, e == std::string::npos ? "%.*f" : "%.*e", digits, value);
  std::string written = buffer;
  const auto exponent = written.find('e');
  if (exponent != std::string::npos) {
    std::string sign = written[exponent + 1] == '-' ? "-" : "";
    auto first = written.find_first_not_of("+-0", exponent + 1);
    written = written.substr(0, exponent + 1) + sign +
              (first == std::string::npos ? "0" : written.substr(first));
  }
  return written;
}

// The bound `file` writes right after `before` for a round-off figure ("below 1e-14"): the
// rounding follows the BLAS kernels the CPU picks, so no run repeats the value bit for bit,
// and the text states a bound that `value` must stay below.
inline void check_quoted_bound(const std::filesystem::path& file, const std::string& before,
                               double value) {
  const auto figure = quoted_figure(file, before);
  CHECK_MESSAGE(value < std::stod(figure), file.filename().string()
                                               << " quotes a bound of " << figure << " after '"
                                               << before << "'; the test measures " << value);
}

// The figures `file` writes right after `before`, one after the other with `separator`
// between them (a list such as "1.96, 1.94, 2.02"), each checked against its value in
// `values` as written_like writes it. Returns the text from `before` to the last figure, for
// what the document says next.
inline std::string check_quoted_list(const std::filesystem::path& file, std::string before,
                                     const std::vector<double>& values,
                                     const std::string& separator = ", ") {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) before += separator;
    const auto figure = quoted_figure(file, before);
    CHECK_MESSAGE(written_like(values[i], figure) == figure,
                  file.filename().string() << " quotes " << figure << " after '" << before
                                           << "'; the test measures " << values[i]);
    before += figure;
  }
  return before;
}

}  // namespace solvent::test
