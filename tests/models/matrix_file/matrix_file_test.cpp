// The matrix-file model: a linear problem read from Matrix Market files (the core's reader,
// tested in tests/core/sdk/matrix_market, with the same data files).
#include <solvent/memory.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace solvent;

namespace {
const std::string data_dir = SOLVENT_MATRIX_MARKET_TEST_DATA;
std::string data(const std::string& name) { return data_dir + "/" + name; }
}  // namespace

TEST_CASE("matrix-file model: b = A x for a known x; solving gives x back") {
  auto model = testkit::make_model("matrix-file", {{"matrix", data("array-symmetric.mtx")},
                                                   {"rhs", std::string("product")},
                                                   {"solution", std::string("ramp")}});
  LinearProblem* problem = model->linear();
  REQUIRE(problem != nullptr);
  const auto exact = problem->exact_solution();
  REQUIRE(exact.has_value());
  CHECK(std::get<std::vector<complex>>(*exact) == std::vector<complex>{1.0, 1.5});
  CHECK(std::get<std::vector<complex>>(problem->rhs()) ==
        std::vector<complex>{complex(1, 1) + 1.5 * complex(2, 2),
                             complex(2, 2) + 1.5 * complex(3, 3)});
  for (const auto& o : problem->observables(*exact)) CHECK(o.value == 0.0);

  auto solver = testkit::make_linear_solver("lapack");
  solver->setup(problem->matrix());
  std::vector<complex> x(2);
  const auto b = std::get<std::vector<complex>>(problem->rhs());
  solver->solve(b, x);
  for (const auto& o : problem->observables(Vector(x))) {
    CAPTURE(o.name);
    CHECK(o.value < 1e-14);
  }
}

TEST_CASE("matrix-file model: a complex right-hand side makes a real matrix complex") {
  auto model = testkit::make_model("matrix-file", {{"matrix", data("symmetric.mtx")},
                                                   {"rhs", std::string("file")},
                                                   {"rhs_file", data("vector.mtx")}});
  LinearProblem* problem = model->linear();
  CHECK(scalar_of(*problem->matrix()) == ScalarKind::Complex);
  CHECK(kind_of(*problem->matrix()) == OperatorKind::Csr);
  CHECK(std::get<std::vector<complex>>(problem->rhs()).size() == 3);
  CHECK_FALSE(problem->exact_solution().has_value());
}

TEST_CASE("matrix-file model: clear errors for a missing, non-square or mismatched input") {
  auto error = [](const testkit::Settings& s) {
    try {
      testkit::make_model("matrix-file", s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error({}).find("matrix: a Matrix Market file is required (the matrix A)") !=
        std::string::npos);
  CHECK(error({{"matrix", data("array.mtx")}}) ==
        data("array.mtx") + ": the matrix is 2 x 3; a linear system needs a square matrix");
  CHECK(error({{"matrix", data("symmetric.mtx")},
               {"rhs", std::string("file")},
               {"rhs_file", data("vector-coordinate.mtx")}}) ==
        data("vector-coordinate.mtx") + ": the vector has 4 entries, the matrix " +
            data("symmetric.mtx") + " has 3 rows");
  CHECK(error({{"matrix", data("bad-row.mtx")}}) ==
        data("bad-row.mtx") + ":4: row index 4 out of range 1..3");
  // Two billion declared rows and one entry: the reader's storage is small, the vectors not.
  set_memory_cap(8.0 * (1ull << 30));
  CHECK(error({{"matrix", data("bad-rows-beyond-memory.mtx")}}) ==
        "model 'matrix-file' needs an estimated 357.6 GiB for the vectors of a system of "
        "2000000000 rows (right-hand side, solution and about ten solver work vectors, complex "
        "at worst), more than the 8.0 GiB allowed by [run] max_memory_gib; use a matrix of "
        "fewer rows or raise [run] max_memory_gib");
  set_memory_cap(0);
}
