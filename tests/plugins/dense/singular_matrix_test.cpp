#include <solvent/direct_solver.hpp>
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

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

TEST_CASE("lapack names a non-finite entry of the matrix (1-based) instead of factoring it") {
  auto a = singular();
  a(1, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK(solve_error("lapack", a) ==
        "lapack: the matrix has a non-finite entry: entry (2, 3) is NaN");
  CHECK(solve_error("lapack", a, {{"reuse_factorization", false}}) ==
        "lapack: the matrix has a non-finite entry: entry (2, 3) is NaN");
  a(1, 2) = 0.0;
  a(2, 0) = -std::numeric_limits<double>::infinity();
  CHECK(solve_error("lapack", a) ==
        "lapack: the matrix has a non-finite entry: entry (3, 1) is infinite");
}

TEST_CASE("an elimination that overflows double precision is named as such") {
  // Wilkinson's matrix of growth 2^(n-1), last column 5e307: finite entries, and partial
  // pivoting doubles that column at each step to 2e308, beyond the largest double. LAPACK
  // factors the transpose of a row-major matrix, so the matrix given is W^T.
  const double c = 5e307;
  DenseMatrix<double> a(3, 3);
  const double w_transposed[9] = {1, -1, -1, 0, 1, -1, c, c, c};
  std::copy(w_transposed, w_transposed + 9, a.values.begin());
  for (const bool reuse : {true, false})
    CHECK(solve_error("lapack", a, {{"reuse_factorization", reuse}}) ==
          "lapack: the elimination overflowed (a factor is infinite): the matrix's entries are too "
          "large for double precision; rescale the system");
}

TEST_CASE("a non-finite right-hand side or solution is a solver failure, never a result") {
  // A subnormal pivot is not zero, so elimination goes through and 1 / 1e-310 overflows.
  DenseMatrix<double> tiny(1, 1);
  tiny(0, 0) = 1e-310;
  for (const char* solver : {"gepp-cpu", "lapack"}) {
    CAPTURE(solver);
    CHECK(solve_error(solver, tiny) ==
          "the solution is not finite (row 0 = inf; solver status 'direct solve')");
    auto lin = testkit::make_linear_solver(solver);
    DenseMatrix<double> two(2, 2);
    two(0, 0) = two(1, 1) = 1.0;
    lin->setup(std::make_shared<const Operator>(two));
    const std::vector<double> b{1.0, std::numeric_limits<double>::quiet_NaN()};
    std::vector<double> x(2);
    CHECK_THROWS_WITH_AS(lin->solve(std::span<const double>(b), std::span<double>(x)),
                         "the right-hand side is not finite (row 1 = nan)", SolverError);
  }
}

TEST_CASE("a dense solver gets a CSR operator converted, and a matrix-free one refused by name") {
  auto lin = testkit::make_linear_solver("gepp-cpu");
  CsrMatrix<double> c;
  c.rows = c.cols = 2;
  c.row_ptr = {0, 1, 3};
  c.col_idx = {0, 0, 1};
  c.values = {2.0, 1.0, 4.0};
  lin->setup(std::make_shared<const Operator>(c));
  CHECK(lin->conversion() == "csr -> dense");
  CHECK(lin->working_form() == OperatorForm{OperatorKind::Dense, ScalarKind::Real});
  const std::vector<double> b{2.0, 9.0};
  std::vector<double> x(2);
  const auto stats = lin->solve(std::span<const double>(b), std::span<double>(x));
  CHECK(x == std::vector<double>{1.0, 2.0});
  CHECK(stats.residual == 0.0);  // computed by the core after the solve

  struct Identity final : MatrixFreeOperator<double> {
    std::size_t rows() const override { return 2; }
    void apply(std::span<const double> u, std::span<double> v) const override {
      std::copy(u.begin(), u.end(), v.begin());
    }
  };
  const Operator free = MatrixFree<double>(std::make_shared<const Identity>());
  CHECK_THROWS_WITH_AS(lin->setup(std::make_shared<const Operator>(free)),
                       "it cannot use a real matrix-free operator (it takes: real dense, complex "
                       "dense), and the core cannot convert one to any of those",
                       UnsupportedOperator);
}

namespace {
// Upper bidiagonal, 1 on the diagonal and `above` next to it: with -100, A^-1 holds 100^39
// (a condition number near 1e80); with -0.5 the system is well posed.
DenseMatrix<double> bidiagonal(std::size_t n, double above) {
  DenseMatrix<double> a(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    a(i, i) = 1.0;
    if (i + 1 < n) a(i, i + 1) = above;
  }
  return a;
}

double rcond_fact(const LinearSolver& s) {
  for (const auto& [k, v] : s.facts())
    if (k == "rcond_estimate") return std::stod(v);
  return -1.0;
}
}  // namespace

TEST_CASE("lapack estimates the condition of what it factors: a fact, smallest over factors") {
  // Partial pivoting is backward stable on both systems, so both solves succeed; only the
  // estimate tells the singular-to-working-precision one apart (the warning it logs is
  // ConditionReport's, tested below).
  for (const bool reuse : {true, false}) {
    CAPTURE(reuse);
    auto lin = testkit::make_linear_solver("lapack", {{"reuse_factorization", reuse}});
    std::vector<double> b(40, 1.0), x(40);
    lin->setup(std::make_shared<const Operator>(bidiagonal(40, -0.5)));
    lin->solve(std::span<const double>(b), std::span<double>(x));
    const double well = rcond_fact(*lin);
    CHECK(well > 0.1);
    CHECK(well <= 1.0);
    lin->setup(std::make_shared<const Operator>(bidiagonal(40, -100.0)));
    const auto st = lin->solve(std::span<const double>(b), std::span<double>(x));
    CHECK(st.converged);
    CHECK(rcond_fact(*lin) > 0.0);
    CHECK(rcond_fact(*lin) < 1e-70);
  }
}

TEST_CASE("ConditionReport: the smallest estimate as a fact, one warning below epsilon") {
  std::ostringstream text;
  auto log = std::make_shared<spdlog::logger>(
      "condition", std::make_shared<spdlog::sinks::ostream_sink_mt>(text));
  log->set_pattern("%v");
  ConditionReport report("lapack", log);
  Facts none;
  report.add_fact(none);
  CHECK(none.empty());
  report.note("gecon", 0, 1.0, 0.25);
  CHECK(text.str().empty());
  report.note("gecon", 0, 1.0, 3e-20);
  report.note("gecon", 0, 1.0, 1e-30);
  report.note("gecon", 0, 1.0, 0.5);  // a later, larger estimate: the smallest stays
  CHECK(text.str() ==
        "lapack: the matrix is singular to working precision (reciprocal condition number "
        "estimate 3.00e-20, below the machine epsilon): the solution may have no correct digit, "
        "whatever its residual\n");
  Facts f;
  report.add_fact(f);
  REQUIRE(f.size() == 1);
  CHECK(f[0].first == "rcond_estimate");
  CHECK(f[0].second == "1.000e-30");
}
