#include <solvent/errors.hpp>
#include <solvent/io/input_file.hpp>
#include <solvent/io/matrix_market.hpp>
#include <solvent/io/output.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace solvent {
namespace {

enum class Format { Coordinate, Array };
enum class Field { Real, Complex, Integer, Pattern };

std::string lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::size_t j = i;
    while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
    if (j > i) words.push_back(line.substr(i, j - i));
    i = j;
  }
  return words;
}

// The file's text with a cursor that knows its line number, so that every complaint can
// name the line it is about.
class NumberedText {
 public:
  NumberedText(std::string_view text, std::string name) : name_(std::move(name)), text_(text) {}

  // The next line (without its end-of-line characters); false at the end of the file.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_;
    return true;
  }

  // The next line that is neither blank nor a comment.
  bool next_content(std::string_view& line) {
    while (next(line)) {
      auto words = split_words(line);
      if (!words.empty() && words.front().front() != '%') return true;
    }
    return false;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(name_ + ":" + std::to_string(std::max<std::size_t>(line_, 1)) + ": " + what);
  }

  std::size_t line() const { return line_; }
  // Bytes after the current line.
  std::size_t remaining() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }

 private:
  std::string name_;
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
};

const char* symmetry_name(MatrixSymmetry s) {
  switch (s) {
    case MatrixSymmetry::General:
      return "general";
    case MatrixSymmetry::Symmetric:
      return "symmetric";
    case MatrixSymmetry::SkewSymmetric:
      return "skew-symmetric";
    case MatrixSymmetry::Hermitian:
      return "hermitian";
  }
  return "general";
}

struct Header {
  Format format = Format::Coordinate;
  Field field = Field::Real;
  MatrixSymmetry symmetry = MatrixSymmetry::General;
  std::size_t rows = 0, cols = 0;
  std::size_t entries = 0;  // stored entries the file must hold
  std::size_t size_line = 0;
};

// The first line: %%MatrixMarket matrix <format> <field> <symmetry>, case-insensitive.
Header read_banner(NumberedText& text) {
  const std::string banner =
      "expected the banner '%%MatrixMarket matrix <format> <field> <symmetry>'";
  std::string_view line;
  if (!text.next(line)) text.fail("empty file; " + banner);
  auto words = split_words(line);
  if (words.size() != 5 || lowercase(words[0]) != "%%matrixmarket") text.fail(banner);
  Header h;
  if (lowercase(words[1]) != "matrix")
    text.fail("unsupported object '" + std::string(words[1]) + "' (expected matrix)");
  const std::string format = lowercase(words[2]), field = lowercase(words[3]),
                    symmetry = lowercase(words[4]);
  if (format == "coordinate")
    h.format = Format::Coordinate;
  else if (format == "array")
    h.format = Format::Array;
  else
    text.fail("unknown format '" + std::string(words[2]) + "' (expected coordinate or array)");
  if (field == "real")
    h.field = Field::Real;
  else if (field == "complex")
    h.field = Field::Complex;
  else if (field == "integer")
    h.field = Field::Integer;
  else if (field == "pattern")
    h.field = Field::Pattern;
  else
    text.fail("unknown field '" + std::string(words[3]) +
              "' (expected real, complex, integer or pattern)");
  if (symmetry == "general")
    h.symmetry = MatrixSymmetry::General;
  else if (symmetry == "symmetric")
    h.symmetry = MatrixSymmetry::Symmetric;
  else if (symmetry == "skew-symmetric")
    h.symmetry = MatrixSymmetry::SkewSymmetric;
  else if (symmetry == "hermitian")
    h.symmetry = MatrixSymmetry::Hermitian;
  else
    text.fail("unknown symmetry '" + std::string(words[4]) +
              "' (expected general, symmetric, skew-symmetric or hermitian)");
  if (h.symmetry == MatrixSymmetry::Hermitian && h.field != Field::Complex)
    text.fail("hermitian symmetry needs the complex field");
  if (h.field == Field::Pattern && h.format == Format::Array)
    text.fail("the pattern field is not allowed with the array format");
  if (h.field == Field::Pattern && h.symmetry == MatrixSymmetry::SkewSymmetric)
    text.fail("skew-symmetric symmetry is not allowed with the pattern field");
  return h;
}

// The size line after the comments: rows, columns and (coordinate format) entries.
void read_size_line(NumberedText& text, Header& h) {
  const bool coordinate = h.format == Format::Coordinate;
  std::string_view line;
  const std::string expected = coordinate ? "expected the size line 'rows columns entries'"
                                          : "expected the size line 'rows columns'";
  if (!text.next_content(line)) text.fail("missing the size line; " + expected);
  h.size_line = text.line();
  const auto words = split_words(line);
  if (words.size() != (coordinate ? 3u : 2u))
    text.fail(expected + ", found '" + std::string(line) + "'");
  std::array<std::size_t, 3> n{};
  for (std::size_t k = 0; k < words.size(); ++k) {
    auto [end, ec] = std::from_chars(words[k].data(), words[k].data() + words[k].size(), n[k]);
    if (ec != std::errc() || end != words[k].data() + words[k].size())
      text.fail(expected + ", found '" + std::string(line) + "'");
  }
  h.rows = n[0];
  h.cols = n[1];
  constexpr std::size_t index_limit = std::numeric_limits<std::int32_t>::max();
  if (h.rows > index_limit || h.cols > index_limit)
    text.fail("matrix of " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
              " is too large for 32-bit indices");
  if (h.symmetry != MatrixSymmetry::General && h.rows != h.cols)
    text.fail("a " + std::string(symmetry_name(h.symmetry)) + " matrix must be square, not " +
              std::to_string(h.rows) + " x " + std::to_string(h.cols));
  if (coordinate) {
    h.entries = n[2];
  } else if (h.symmetry == MatrixSymmetry::General) {
    h.entries = h.rows * h.cols;
  } else if (h.symmetry == MatrixSymmetry::SkewSymmetric) {
    h.entries = h.rows > 0 ? h.rows * (h.rows - 1) / 2 : 0;
  } else {
    h.entries = h.rows * (h.rows + 1) / 2;
  }
}

Header read_header(NumberedText& text) {
  Header h = read_banner(text);
  read_size_line(text, h);
  return h;
}

// An optional '+' (from_chars takes none) before a number that has no sign of its own.
std::string_view without_plus(std::string_view word) {
  if (word.size() > 1 && word.front() == '+' && word[1] != '-' && word[1] != '+')
    word.remove_prefix(1);
  return word;
}

double parse_real(NumberedText& text, std::string_view word) {
  const std::string_view digits = without_plus(word);
  double v = 0.0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range)
    text.fail("number '" + std::string(word) + "' is out of the range of double");
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
    text.fail("non-numeric entry '" + std::string(word) + "'");
  return v;
}

double parse_integer(NumberedText& text, std::string_view word) {
  const std::string_view digits = without_plus(word);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range)
    text.fail("integer '" + std::string(word) + "' is out of the range of a 64-bit integer");
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
    text.fail("expected an integer, found '" + std::string(word) + "'");
  return static_cast<double>(v);
}

std::int32_t parse_index(NumberedText& text, std::string_view word, const char* what,
                         std::size_t extent) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  const std::string range = " out of range 1.." + std::to_string(extent);
  if (ec == std::errc::result_out_of_range && end == word.data() + word.size())
    text.fail(std::string(what) + " index " + std::string(word) + range);
  if (ec != std::errc() || end != word.data() + word.size())
    text.fail("non-numeric " + std::string(what) + " index '" + std::string(word) + "'");
  if (v < 1 || static_cast<std::size_t>(v) > extent)
    text.fail(std::string(what) + " index " + std::to_string(v) + range);
  return static_cast<std::int32_t>(v - 1);
}

// A matrix that holds NaN or infinity gives every solver garbage (LAPACK rejects an
// argument, a Krylov method "converges" to NaN), so the file is refused at the entry.
template <class T>
void check_value(NumberedText& text, const Header& h, std::int32_t i, std::int32_t j, T v) {
  const std::string at = "entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ")";
  const double re = std::real(v), im = std::imag(v);
  if (std::isnan(re) || std::isnan(im)) text.fail(at + " is NaN");
  if (std::isinf(re) || std::isinf(im)) text.fail(at + " is infinite");
  // A hermitian matrix equals its conjugate transpose, so its diagonal is real.
  if (h.symmetry == MatrixSymmetry::Hermitian && i == j && im != 0.0) {
    std::array<char, 32> buf;
    auto end = std::to_chars(buf.data(), buf.data() + buf.size(), im).ptr;
    text.fail(at + " on the diagonal of a hermitian matrix has the imaginary part " +
              std::string(buf.data(), end) + "; a hermitian diagonal is real");
  }
}

// The stored entries of a file, with symmetric storage already expanded, 0-based.
template <class T>
struct Entries {
  Header header;
  std::vector<std::int32_t> row, col;
  std::vector<T> value;

  void add(std::int32_t i, std::int32_t j, T v) {
    row.push_back(i);
    col.push_back(j);
    value.push_back(v);
  }
};

template <class T>
T parse_value(NumberedText& text, Field field, std::span<const std::string_view> words) {
  switch (field) {
    case Field::Pattern:
      return T(1.0);
    case Field::Integer:
      return T(parse_integer(text, words[0]));
    case Field::Real:
      return T(parse_real(text, words[0]));
    case Field::Complex:
      if constexpr (std::is_same_v<T, complex>) {
        return complex(parse_real(text, words[0]), parse_real(text, words[1]));
      }
      break;
  }
  return T{};
}

std::string count_phrase(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// Long because it is one pass over the entry lines with every check a line can fail (count,
// indices in range, symmetry, finite values), each naming file:line as it meets it.
template <class T>
Entries<T> read_entries(NumberedText& text, const Header& h) {
  Entries<T> e;
  e.header = h;
  const bool coordinate = h.format == Format::Coordinate;
  const std::size_t indices = coordinate ? 2 : 0;
  const std::size_t values = h.field == Field::Pattern ? 0 : h.field == Field::Complex ? 2 : 1;
  // The declared count is only a claim: reserve no more than the rest of the file can
  // hold (each entry is at least one character per number and a separator after each),
  // and let a file that holds fewer end with "the file ends after N of the M entries".
  const std::size_t reserve =
      std::min(h.entries, (text.remaining() + 1) / (2 * (indices + values)));
  e.row.reserve(reserve);
  e.col.reserve(reserve);
  e.value.reserve(reserve);
  std::string layout = coordinate ? "row column" : "";
  if (values == 1) layout += coordinate ? " value" : "value";
  if (values == 2) layout += coordinate ? " real imaginary" : "real imaginary";
  const std::string expected =
      "expected " + count_phrase(indices + values, "number") + " (" + layout + "), found ";

  // Array files list columns top to bottom; symmetric ones only the lower triangle.
  std::size_t ai = 0, aj = 0;
  if (h.format == Format::Array && h.symmetry == MatrixSymmetry::SkewSymmetric) ai = 1;

  std::string_view line;
  std::size_t seen = 0;
  while (text.next_content(line)) {
    if (seen == h.entries)
      text.fail("more entries than the " + std::to_string(h.entries) + " declared on line " +
                std::to_string(h.size_line));
    auto words = split_words(line);
    if (words.size() != indices + values) text.fail(expected + std::to_string(words.size()));
    std::int32_t i, j;
    if (coordinate) {
      i = parse_index(text, words[0], "row", h.rows);
      j = parse_index(text, words[1], "column", h.cols);
    } else {
      i = static_cast<std::int32_t>(ai);
      j = static_cast<std::int32_t>(aj);
      if (++ai == h.rows) {
        ++aj;
        ai = h.symmetry == MatrixSymmetry::General         ? 0
             : h.symmetry == MatrixSymmetry::SkewSymmetric ? aj + 1
                                                           : aj;
      }
    }
    T v = parse_value<T>(text, h.field, std::span(words).subspan(indices));
    check_value(text, h, i, j, v);
    ++seen;
    if (h.symmetry != MatrixSymmetry::General) {
      if (j > i)
        text.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                  ") above the diagonal of a " +
                  std::string(h.symmetry == MatrixSymmetry::Symmetric   ? "symmetric"
                              : h.symmetry == MatrixSymmetry::Hermitian ? "hermitian"
                                                                        : "skew-symmetric") +
                  " matrix (only the lower triangle is stored)");
      if (i == j && h.symmetry == MatrixSymmetry::SkewSymmetric)
        text.fail("entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                  ") on the diagonal of a skew-symmetric matrix");
    }
    if (e.value.size() + 2 > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      text.fail("the matrix has more stored entries than 32-bit indices can address");
    e.add(i, j, v);
    if (i != j) {
      switch (h.symmetry) {
        case MatrixSymmetry::General:
          break;
        case MatrixSymmetry::Symmetric:
          e.add(j, i, v);
          break;
        case MatrixSymmetry::SkewSymmetric:
          e.add(j, i, -v);
          break;
        case MatrixSymmetry::Hermitian:
          if constexpr (std::is_same_v<T, complex>) e.add(j, i, std::conj(v));
          break;
      }
    }
  }
  if (seen != h.entries)
    text.fail("the file ends after " + std::to_string(seen) + " of the " +
              std::to_string(h.entries) + " entries declared on line " +
              std::to_string(h.size_line));
  return e;
}

// Row-wise sort of the triplets; repeated (row, column) pairs are summed, as the
// Matrix Market format leaves them to the reader and assemblers emit them that way.
// row_ptr is the only array of the matrix's row count (check_memory has weighed it).
template <class T>
CsrMatrix<T> to_csr(Entries<T>&& e) {
  CsrMatrix<T> a;
  a.rows = e.header.rows;
  a.cols = e.header.cols;
  a.row_ptr.assign(a.rows + 1, 0);
  for (auto i : e.row) ++a.row_ptr[i + 1];
  for (std::size_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  // Entry numbers grouped by row: row_ptr[i] walks through row i's slots, after which
  // row_ptr[i] holds where row i + 1 starts.
  std::vector<std::int32_t> order(e.value.size());
  for (std::size_t k = 0; k < e.row.size(); ++k)
    order[a.row_ptr[e.row[k]]++] = static_cast<std::int32_t>(k);
  a.col_idx.reserve(e.value.size());
  a.values.reserve(e.value.size());
  std::int32_t begin = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    const std::int32_t end = a.row_ptr[i];
    a.row_ptr[i] = static_cast<std::int32_t>(a.col_idx.size());
    auto first = order.begin() + begin, last = order.begin() + end;
    std::sort(first, last, [&](std::int32_t p, std::int32_t q) { return e.col[p] < e.col[q]; });
    for (auto it = first; it != last; ++it) {
      if (static_cast<std::size_t>(a.row_ptr[i]) < a.col_idx.size() &&
          a.col_idx.back() == e.col[*it]) {
        a.values.back() += e.value[*it];
      } else {
        a.col_idx.push_back(e.col[*it]);
        a.values.push_back(e.value[*it]);
      }
    }
    begin = end;
  }
  a.row_ptr[a.rows] = static_cast<std::int32_t>(a.col_idx.size());
  return a;
}

// Storage whose size only the header declares (a sparse matrix's row pointers, the
// values of a coordinate vector) is weighed against the limit before it is allocated, so
// that a header of 2147483647 rows and a handful of entries is refused by name instead of
// ending in std::bad_alloc or the OOM killer.
void check_memory(const NumberedText& text, const Header& h, double bytes, const char* what,
                  const MemoryLimit& limit) {
  if (bytes <= limit.bytes) return;
  constexpr double mib = 1024.0 * 1024.0;
  text.fail("the declared " + std::to_string(h.rows) + " x " + std::to_string(h.cols) +
            " matrix needs " + std::to_string(static_cast<std::uint64_t>(std::ceil(bytes / mib))) +
            " MiB for its " + what + ", more than " + limit.description);
}

template <class T>
DenseMatrix<T> to_dense(const Entries<T>& e) {
  DenseMatrix<T> a(e.header.rows, e.header.cols);
  for (std::size_t k = 0; k < e.value.size(); ++k) a(e.row[k], e.col[k]) += e.value[k];
  return a;
}

template <class T>
std::vector<T> to_vector(const Entries<T>& e) {
  std::vector<T> v(e.header.rows * e.header.cols, T{});
  for (std::size_t k = 0; k < e.value.size(); ++k) v[e.row[k] + e.col[k]] += e.value[k];
  return v;
}

void append_number(std::string& out, double v) {
  std::array<char, 32> buf;
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  out.append(buf.data(), end);
}

void append_value(std::string& out, double v) { append_number(out, v); }
void append_value(std::string& out, complex v) {
  append_number(out, v.real());
  out += ' ';
  append_number(out, v.imag());
}

template <class T>
constexpr const char* field_name() {
  return std::is_same_v<T, complex> ? "complex" : "real";
}

template <class T>
T mirrored(MatrixSymmetry s, T v) {
  switch (s) {
    case MatrixSymmetry::SkewSymmetric:
      return -v;
    case MatrixSymmetry::Hermitian:
      if constexpr (std::is_same_v<T, complex>) return std::conj(v);
      return v;
    default:
      return v;
  }
}

// The value stored at (j, i), or zero when the row holds no such column.
template <class T>
T entry(const CsrMatrix<T>& a, std::int32_t i, std::int32_t j) {
  auto first = a.col_idx.begin() + a.row_ptr[i], last = a.col_idx.begin() + a.row_ptr[i + 1];
  auto it = std::lower_bound(first, last, j);
  return (it != last && *it == j) ? a.values[it - a.col_idx.begin()] : T{};
}

template <class T>
void write_csr(const std::filesystem::path& path, const CsrMatrix<T>& a, MatrixSymmetry symmetry) {
  if (symmetry == MatrixSymmetry::Hermitian && !std::is_same_v<T, complex>)
    throw InputError(path.string() + ": hermitian storage needs a complex matrix");
  std::size_t stored = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = a.col_idx[p];
      if (symmetry == MatrixSymmetry::General) {
        ++stored;
        continue;
      }
      const auto si = static_cast<std::int32_t>(i);
      if (a.values[p] != mirrored(symmetry, entry(a, j, si)) ||
          (symmetry == MatrixSymmetry::SkewSymmetric && j == si && a.values[p] != T{}))
        throw InputError(path.string() + ": the matrix is not " + symmetry_name(symmetry) +
                         ": entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                         ") has no matching mirror entry");
      if (j < si || (j == si && symmetry != MatrixSymmetry::SkewSymmetric)) ++stored;
    }
  }
  std::string out = std::string("%%MatrixMarket matrix coordinate ") + field_name<T>() + " " +
                    symmetry_name(symmetry) + "\n% written by Solvent\n";
  out +=
      std::to_string(a.rows) + " " + std::to_string(a.cols) + " " + std::to_string(stored) + "\n";
  out.reserve(out.size() + stored * (std::is_same_v<T, complex> ? 60 : 36));
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(a.col_idx[p]);
      if (symmetry != MatrixSymmetry::General &&
          (j > i || (j == i && symmetry == MatrixSymmetry::SkewSymmetric)))
        continue;
      out += std::to_string(i + 1);
      out += ' ';
      out += std::to_string(j + 1);
      out += ' ';
      append_value(out, a.values[p]);
      out += '\n';
    }
  }
  write_file_atomic(path, out);
}

template <class T>
void write_array(const std::filesystem::path& path, const std::vector<T>& v) {
  std::string out = std::string("%%MatrixMarket matrix array ") + field_name<T>() +
                    " general\n% written by Solvent\n" + std::to_string(v.size()) + " 1\n";
  out.reserve(out.size() + v.size() * (std::is_same_v<T, complex> ? 50 : 25));
  for (const T& x : v) {
    append_value(out, x);
    out += '\n';
  }
  write_file_atomic(path, out);
}

}  // namespace

Operator parse_matrix_market(std::string_view text, const std::string& name,
                             const MemoryLimit& limit) {
  NumberedText lines(text, name);
  const Header h = read_header(lines);
  const bool cplx = h.field == Field::Complex;
  if (h.format == Format::Array) {
    // Every entry of an array file is in the file, so the entries bound the dense matrix.
    if (cplx) return to_dense(read_entries<complex>(lines, h));
    return to_dense(read_entries<double>(lines, h));
  }
  check_memory(lines, h, (static_cast<double>(h.rows) + 1) * sizeof(std::int32_t), "row pointers",
               limit);
  if (cplx) return to_csr(read_entries<complex>(lines, h));
  return to_csr(read_entries<double>(lines, h));
}

Vector parse_matrix_market_vector(std::string_view text, const std::string& name,
                                  const MemoryLimit& limit) {
  NumberedText lines(text, name);
  const Header h = read_header(lines);
  if (h.rows != 1 && h.cols != 1)
    lines.fail("a vector must have one column or one row, not " + std::to_string(h.rows) + " x " +
               std::to_string(h.cols));
  const bool cplx = h.field == Field::Complex;
  check_memory(lines, h,
               static_cast<double>(h.rows) * static_cast<double>(h.cols) *
                   (cplx ? sizeof(complex) : sizeof(double)),
               "values", limit);
  if (cplx) return to_vector(read_entries<complex>(lines, h));
  return to_vector(read_entries<double>(lines, h));
}

Operator read_matrix_market(const std::filesystem::path& path) {
  return parse_matrix_market(read_input_file(path), path.string(), memory_limit());
}

Vector read_matrix_market_vector(const std::filesystem::path& path) {
  return parse_matrix_market_vector(read_input_file(path), path.string(), memory_limit());
}

void write_matrix_market(const std::filesystem::path& path, const CsrMatrix<double>& a,
                         MatrixSymmetry symmetry) {
  write_csr(path, a, symmetry);
}

void write_matrix_market(const std::filesystem::path& path, const CsrMatrix<complex>& a,
                         MatrixSymmetry symmetry) {
  write_csr(path, a, symmetry);
}

void write_matrix_market(const std::filesystem::path& path, const Vector& v) {
  std::visit([&](const auto& x) { write_array(path, x); }, v);
}

}  // namespace solvent
