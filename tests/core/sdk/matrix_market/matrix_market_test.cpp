// Matrix Market reading and writing: every format, field and symmetry against hand-made
// files, exact messages (file:line: what) for malformed ones, exact round trips.
#include <solvent/io/input_file.hpp>
#include <solvent/io/matrix_market.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <random>

using namespace solvent;

namespace {

const std::string data_dir = SOLVENT_MATRIX_MARKET_TEST_DATA;

std::string data(const std::string& name) { return data_dir + "/" + name; }

template <class T>
DenseMatrix<T> dense(const CsrMatrix<T>& a) {
  DenseMatrix<T> d(a.rows, a.cols);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) d(i, a.col_idx[p]) = a.values[p];
  return d;
}

template <class T>
DenseMatrix<T> read_csr_as_dense(const std::string& name) {
  const Operator op = read_matrix_market(data(name));
  REQUIRE(std::holds_alternative<CsrMatrix<T>>(op));
  return dense(std::get<CsrMatrix<T>>(op));
}

template <class T>
std::vector<T> row_major(std::initializer_list<T> v) {
  return std::vector<T>(v);
}

std::string read_error(const std::string& name, bool as_vector = false) {
  try {
    if (as_vector)
      read_matrix_market_vector(data(name));
    else
      read_matrix_market(data(name));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::filesystem::path scratch(const std::string& name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("solvent-mm-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

template <class T>
CsrMatrix<T> random_csr(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1e3, 1e3);
  std::uniform_int_distribution<int> keep(0, 3);
  CsrMatrix<T> a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j)
      if (keep(rng) == 0) {
        a.col_idx.push_back(static_cast<std::int32_t>(j));
        if constexpr (std::is_same_v<T, complex>)
          a.values.push_back(complex(u(rng), u(rng) * 1e-7));
        else
          a.values.push_back(u(rng) / 3.0);
      }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.col_idx.size()));
  }
  return a;
}

template <class T>
void check_same(const CsrMatrix<T>& a, const CsrMatrix<T>& b) {
  CHECK(a.rows == b.rows);
  CHECK(a.cols == b.cols);
  CHECK(a.row_ptr == b.row_ptr);
  CHECK(a.col_idx == b.col_idx);
  CHECK(a.values == b.values);
}

}  // namespace

TEST_CASE("coordinate real general: comments, blank lines, '+' signs, repeated entries summed") {
  const Operator op = read_matrix_market(data("general.mtx"));
  const auto& a = std::get<CsrMatrix<double>>(op);
  CHECK(a.row_ptr == std::vector<std::int32_t>{0, 2, 3, 4});
  CHECK(a.col_idx == std::vector<std::int32_t>{0, 2, 0, 2});
  CHECK(a.values == std::vector<double>{5.0, 7.0, -1.0, 0.25});
}

TEST_CASE("symmetric, skew-symmetric, hermitian, pattern and integer storage is expanded") {
  CHECK(read_csr_as_dense<double>("symmetric.mtx").values ==
        row_major<double>({2, -1, 0, -1, 0, -1, 0, -1, 2}));
  CHECK(read_csr_as_dense<double>("skew.mtx").values ==
        row_major<double>({0, -5, 2, 5, 0, 0, -2, 0, 0}));
  CHECK(read_csr_as_dense<complex>("hermitian.mtx").values ==
        row_major<complex>({{1, 0}, {2, -3}, {2, 3}, {4, 0}}));
  CHECK(read_csr_as_dense<double>("pattern.mtx").values == row_major<double>({0, 0, 1, 1, 0, 0}));
  CHECK(read_csr_as_dense<double>("integer.mtx").values == row_major<double>({3, -4, -4, 0}));
}

TEST_CASE("array files become dense matrices (column-major in the file, row-major in memory)") {
  const Operator general = read_matrix_market(data("array.mtx"));
  CHECK(std::get<DenseMatrix<double>>(general).values == row_major<double>({1, 3, 5, 2, 4, 6}));
  const Operator sym = read_matrix_market(data("array-symmetric.mtx"));
  CHECK(std::get<DenseMatrix<complex>>(sym).values ==
        row_major<complex>({{1, 1}, {2, 2}, {2, 2}, {3, 3}}));
  const Operator skew = read_matrix_market(data("array-skew.mtx"));
  CHECK(std::get<DenseMatrix<double>>(skew).values ==
        row_major<double>({0, -1, -2, 1, 0, -3, 2, 3, 0}));
}

TEST_CASE("vectors: array and coordinate, real and complex") {
  CHECK(std::get<std::vector<complex>>(read_matrix_market_vector(data("vector.mtx"))) ==
        std::vector<complex>{{1, 0}, {0, 1}, {-1, 0.5}});
  CHECK(std::get<std::vector<double>>(read_matrix_market_vector(data("vector-coordinate.mtx"))) ==
        std::vector<double>{0, 3, 0, -1});
}

TEST_CASE("malformed files: InputError '<file>:<line>: <what>'") {
  const std::string banner =
      "expected the banner '%%MatrixMarket matrix <format> <field> <symmetry>'";
  const std::map<std::string, std::string> expected{
      {"empty.mtx", "1: empty file; " + banner},
      {"bad-banner.mtx", "1: " + banner},
      {"bad-object.mtx", "1: unsupported object 'vector' (expected matrix)"},
      {"bad-format.mtx", "1: unknown format 'sparse' (expected coordinate or array)"},
      {"bad-field.mtx", "1: unknown field 'double' (expected real, complex, integer or pattern)"},
      {"bad-symmetry.mtx",
       "1: unknown symmetry 'lower' (expected general, symmetric, skew-symmetric or hermitian)"},
      {"bad-hermitian-real.mtx", "1: hermitian symmetry needs the complex field"},
      {"bad-pattern-array.mtx", "1: the pattern field is not allowed with the array format"},
      {"bad-size.mtx", "3: expected the size line 'rows columns entries', found '3 3'"},
      {"bad-size-text.mtx", "2: expected the size line 'rows columns', found '3 x'"},
      {"bad-missing-size.mtx",
       "2: missing the size line; expected the size line 'rows columns entries'"},
      {"bad-nonsquare-symmetric.mtx", "2: a symmetric matrix must be square, not 2 x 3"},
      {"bad-short.mtx", "5: the file ends after 3 of the 4 entries declared on line 2"},
      {"bad-long.mtx", "5: more entries than the 2 declared on line 2"},
      {"bad-array-short.mtx", "5: the file ends after 3 of the 4 entries declared on line 2"},
      {"bad-row.mtx", "4: row index 4 out of range 1..3"},
      {"bad-column.mtx", "4: column index 0 out of range 1..3"},
      {"bad-index-text.mtx", "3: non-numeric row index '1.5'"},
      {"bad-value.mtx", "4: non-numeric entry 'abc'"},
      {"bad-array-value.mtx", "4: non-numeric entry '2,0'"},
      {"bad-complex-count.mtx", "3: expected 4 numbers (row column real imaginary), found 3"},
      {"bad-pattern-count.mtx", "3: expected 2 numbers (row column), found 3"},
      {"bad-integer.mtx", "3: expected an integer, found '1.5'"},
      {"bad-upper.mtx",
       "4: entry (1, 2) above the diagonal of a symmetric matrix (only the lower triangle is "
       "stored)"},
      {"bad-skew-diagonal.mtx", "3: entry (2, 2) on the diagonal of a skew-symmetric matrix"},
      {"bad-range.mtx", "3: number '1e999' is out of the range of double"},
      {"bad-nan.mtx", "4: entry (3, 5) is NaN"},
      {"bad-infinite.mtx", "6: entry (1, 2) is infinite"},
      {"bad-complex-nan.mtx", "3: entry (2, 1) is NaN"},
      {"bad-hermitian-diagonal.mtx",
       "5: entry (2, 2) on the diagonal of a hermitian matrix has the imaginary part 0.5; a "
       "hermitian diagonal is real"},
      {"bad-too-many-rows.mtx", "2: matrix of 2147483648 x 1 is too large for 32-bit indices"},
      {"bad-declared-entries.mtx",
       "3: the file ends after 1 of the 1000000000000 entries declared on line 2"},
      {"bad-huge-index.mtx", "3: row index 99999999999999999999 out of range 1..3"},
      {"bad-sign.mtx", "4: non-numeric entry '+-1'"},
  };
  for (const auto& [file, what] : expected) {
    CAPTURE(file);
    CHECK(read_error(file) == data(file) + ":" + what);
  }
  CHECK(read_error("bad-vector-shape.mtx", true) ==
        data("bad-vector-shape.mtx") + ":2: a vector must have one column or one row, not 2 x 2");
  CHECK(read_error("no-such-file.mtx") ==
        data("no-such-file.mtx") + ": cannot open for reading: No such file or directory");
  CHECK(read_error(".") == data(".") + ": is a directory");
}

TEST_CASE("a size that only the header declares is weighed before it is allocated") {
  const MemoryLimit mib{1024 * 1024, "the 1.0 MiB of this test"};
  auto parse_error = [&](const std::string& name, bool as_vector) {
    const std::string text = read_input_file(data(name));
    try {
      if (as_vector)
        parse_matrix_market_vector(text, name, mib);
      else
        parse_matrix_market(text, name, mib);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(parse_error("bad-memory.mtx", false) ==
        "bad-memory.mtx:2: the declared 2147483647 x 2147483647 matrix needs 8192 MiB for its "
        "row pointers, more than the 1.0 MiB of this test");
  CHECK(parse_error("bad-vector-memory.mtx", true) ==
        "bad-vector-memory.mtx:2: the declared 2147483647 x 1 matrix needs 16384 MiB for its "
        "values, more than the 1.0 MiB of this test");
  // Under the limit the same header reads on, to the entries it lacks.
  CHECK(parse_error("bad-vector-memory.mtx", false) ==
        "bad-vector-memory.mtx:3: the file ends after 1 of the 2147483647 entries declared on "
        "line 2");
  // The in-memory entry point reads what the file version reads.
  const std::string general = read_input_file(data("general.mtx"));
  CHECK(std::get<CsrMatrix<double>>(parse_matrix_market(general, "general.mtx", mib)).values ==
        std::get<CsrMatrix<double>>(read_matrix_market(data("general.mtx"))).values);
}

TEST_CASE("round trip: write then read gives back the same matrix bit for bit") {
  std::mt19937 rng(7);
  const auto real = random_csr<double>(40, rng);
  write_matrix_market(scratch("real.mtx"), real);
  check_same(real, std::get<CsrMatrix<double>>(read_matrix_market(scratch("real.mtx"))));

  const auto cplx = random_csr<complex>(40, rng);
  write_matrix_market(scratch("complex.mtx"), cplx);
  check_same(cplx, std::get<CsrMatrix<complex>>(read_matrix_market(scratch("complex.mtx"))));

  const Vector v = std::vector<complex>{{1.0 / 3.0, -2e-300}, {1e300, 0.1}};
  write_matrix_market(scratch("v.mtx"), v);
  CHECK(read_matrix_market_vector(scratch("v.mtx")) == v);
}

TEST_CASE(
    "symmetric writing stores the lower triangle and refuses a matrix without that symmetry") {
  const auto a = std::get<CsrMatrix<complex>>(read_matrix_market(data("hermitian.mtx")));
  write_matrix_market(scratch("h.mtx"), a, MatrixSymmetry::Hermitian);
  check_same(a, std::get<CsrMatrix<complex>>(read_matrix_market(scratch("h.mtx"))));
  const auto s = std::get<CsrMatrix<double>>(read_matrix_market(data("symmetric.mtx")));
  write_matrix_market(scratch("s.mtx"), s, MatrixSymmetry::Symmetric);
  check_same(s, std::get<CsrMatrix<double>>(read_matrix_market(scratch("s.mtx"))));
  const auto k = std::get<CsrMatrix<double>>(read_matrix_market(data("skew.mtx")));
  write_matrix_market(scratch("k.mtx"), k, MatrixSymmetry::SkewSymmetric);
  check_same(k, std::get<CsrMatrix<double>>(read_matrix_market(scratch("k.mtx"))));
  try {
    write_matrix_market(scratch("bad.mtx"), a, MatrixSymmetry::Symmetric);
    FAIL("a hermitian matrix was written as symmetric");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          scratch("bad.mtx").string() +
              ": the matrix is not symmetric: entry (1, 2) has no matching mirror entry");
  }
}
