#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace solvent;

namespace {
// Rows 0 and 1 equal: after two steps only a zero is left for the third pivot.
DenseMatrix<double> singular() {
  DenseMatrix<double> a(3, 3);
  const double v[9] = {1, 2, 3, 1, 2, 3, 0, 1, 1};
  std::copy(v, v + 9, a.values.begin());
  return a;
}

std::string solve_error(const std::string& solver, const DenseMatrix<double>& a,
                        testkit::Settings s = {}) {
  auto lin = testkit::make_linear_solver(solver, s);
  try {
    lin->setup(std::make_shared<const Operator>(a));
    std::vector<double> b(a.rows, 1.0), x(a.rows);
    lin->solve(std::span<const double>(b), std::span<double>(x));
  } catch (const SolverError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a singular matrix is an error naming the elimination step and the pivot") {
  CHECK(solve_error("gepp-cpu", singular()) ==
        "gepp-cpu: singular matrix: pivot 0 at elimination step 3 of 3 (column 2)");
  CHECK(solve_error("gepp-cpu", singular(), {{"reuse_factorization", true}}) ==
        "gepp-cpu: singular matrix: pivot 0 at elimination step 3 of 3 (column 2)");
  // LAPACK factors the transpose of our row-major matrix, so its zero pivot comes a step earlier.
  CHECK(solve_error("lapack", singular()) ==
        "lapack: singular matrix: getrf found a zero pivot at elimination step 2 of 3");
}

TEST_CASE("a non-finite pivot is an error, not a NaN solution") {
  auto a = singular();
  a(2, 0) = std::numeric_limits<double>::quiet_NaN();
  a(0, 0) = std::numeric_limits<double>::infinity();
  CHECK(solve_error("gepp-cpu", a)
            .rfind("gepp-cpu: singular matrix: pivot inf at elimination step 1 of 3", 0) == 0);
}

TEST_CASE("a solver refuses operator kinds it does not take, naming them") {
  auto lin = testkit::make_linear_solver("gepp-cpu");
  CsrMatrix<double> c;
  c.rows = c.cols = 1;
  c.row_ptr = {0, 1};
  c.col_idx = {0};
  c.values = {1.0};
  CHECK_THROWS_WITH_AS(lin->setup(std::make_shared<const Operator>(c)),
                       "gepp-cpu takes a dense matrix, not a csr operator", UnsupportedOperator);
}
