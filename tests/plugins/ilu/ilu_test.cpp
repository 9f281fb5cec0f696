// ilu0: the preconditioner conformance checks; ILU(0) is the exact LU where it drops nothing
// (a tridiagonal matrix); on a 2D Laplacian its factors reproduce A on A's pattern and drop
// the rest; refresh() matches a fresh setup and refactors in place; zero pivots and misuse
// are refused with their messages. Real and complex throughout.
#include "test_operators.hpp"

#include <solvent_ilu/ilu0.hpp>

#include <solvent/testkit.hpp>

#include <solvent_test/preconditioner_checks.hpp>
#include <solvent_test/quoted_figures.hpp>
#include <solvent_test/solver_checks.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tk = solvent::testkit;
using namespace ilu_test;
using solvent::test::applied;
using solvent::test::max_relative_difference;

namespace {

// L U of the factors as a dense row-major matrix, L with its unit diagonal.
template <class T>
std::vector<T> product_of_factors(const solvent::ilu::Ilu0<T>& f) {
  const std::size_t n = f.rows();
  std::vector<T> l(n * n, T(0)), u(n * n, T(0)), lu(n * n, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    l[i * n + i] = T(1);
    for (std::int32_t p = f.row_ptr()[i]; p < f.row_ptr()[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(f.col_idx()[p]);
      (j < i ? l : u)[i * n + j] = f.values()[p];
    }
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) lu[i * n + j] += l[i * n + k] * u[k * n + j];
  return lu;
}

std::string fact(const solvent::Preconditioner& pc, const std::string& key) {
  for (const auto& [k, v] : pc.facts())
    if (k == key) return v;
  return "";
}

solvent::CsrMatrix<double> two_by_two(double a, double b, double c, double d) {
  solvent::CsrMatrix<double> m;
  m.rows = m.cols = 2;
  m.row_ptr = {0, 2, 4};
  m.col_idx = {0, 1, 0, 1};
  m.values = {a, b, c, d};
  return m;
}

}  // namespace

TEST_CASE("ilu0 passes the preconditioner conformance checks") { tk::check_preconditioner("ilu0"); }

TEST_CASE_TEMPLATE("on a tridiagonal matrix ILU(0) is the exact LU: apply(A x) = x", T, double,
                   complex) {
  const auto a = tridiagonal<T>(200);
  auto pc = tk::make_preconditioner("ilu0");
  pc->setup(op(a));
  const auto x = random_vector<T>(a.rows, 1);
  auto b = solvent::test::reference_apply(a, x);
  const auto z = applied(*pc, b);
  CHECK(max_relative_difference(z, x) <= 1e-12);
  pc->apply(std::span<const T>(b), std::span<T>(b));
  CHECK(b == z);
}

TEST_CASE_TEMPLATE("on a 2D Laplacian L U equals A on A's pattern, and ilu0 applies (L U)^-1", T,
                   double, complex) {
  const auto a = laplacian_2d<T>(9, 7);
  const std::size_t n = a.rows;
  const solvent::ilu::Ilu0<T> f(a, "ilu0");
  const auto lu = product_of_factors(f);
  std::vector<bool> in_pattern(n * n, false);
  double worst = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::int32_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(a.col_idx[p]);
      in_pattern[i * n + j] = true;
      worst = std::max(worst, std::abs(lu[i * n + j] - a.values[p]) / std::abs(a.values[p]));
    }
  CHECK(worst <= 1e-13);
  // The fill ILU(0) dropped: L U differs from A (zero there) outside A's pattern.
  double dropped = 0.0;
  for (std::size_t k = 0; k < n * n; ++k)
    if (!in_pattern[k]) dropped = std::max(dropped, std::abs(lu[k]));
  CHECK(dropped > 0.01);

  auto pc = tk::make_preconditioner("ilu0");
  pc->setup(op(a));
  const auto x = random_vector<T>(n, 2);
  std::vector<T> lux(n, T(0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) lux[i] += lu[i * n + j] * x[j];
  CHECK(max_relative_difference(applied(*pc, lux), x) <= 1e-12);
}

TEST_CASE_TEMPLATE("refresh() gives a fresh setup's z: in place on the same pattern, else anew", T,
                   double, complex) {
  const auto a = laplacian_2d<T>(9, 7);
  const auto r = random_vector<T>(a.rows, 3);
  auto pc = tk::make_preconditioner("ilu0");
  pc->setup(op(a));
  const auto before = applied(*pc, r);

  const auto b = rescaled(a);
  pc->refresh(op(b));
  auto fresh = tk::make_preconditioner("ilu0");
  fresh->setup(op(b));
  const auto after = applied(*pc, r);
  CHECK(after == applied(*fresh, r));
  CHECK(max_relative_difference(after, before) > 0.01);
  CHECK(fact(*pc, "setups") == "1");
  CHECK(fact(*pc, "refreshes") == "1");

  const auto other = tridiagonal<T>(50);
  pc->refresh(op(other));
  fresh->setup(op(other));
  const auto r50 = random_vector<T>(50, 4);
  CHECK(applied(*pc, r50) == applied(*fresh, r50));
  CHECK(fact(*pc, "setups") == "2");
  CHECK(fact(*pc, "refreshes") == "1");
}

TEST_CASE("zero pivots are refused, naming the row") {
  auto pc = tk::make_preconditioner("ilu0");
  CHECK_THROWS_WITH_AS(pc->setup(op(two_by_two(0, 1, 1, 0))), "ilu0: zero pivot in row 0",
                       solvent::SolverError);
  // Row 1's pivot becomes 1 - 1 * 1 during elimination.
  CHECK_THROWS_WITH_AS(pc->setup(op(two_by_two(1, 1, 1, 1))), "ilu0: zero pivot in row 1",
                       solvent::SolverError);
  solvent::CsrMatrix<complex> missing;
  missing.rows = missing.cols = 3;
  missing.row_ptr = {0, 1, 2, 4};
  missing.col_idx = {0, 1, 0, 1};
  missing.values = {1.0, 1.0, 1.0, 1.0};
  CHECK_THROWS_WITH_AS(
      pc->setup(op(missing)),
      "ilu0: row 2 has no diagonal entry (ILU(0) keeps A's pattern, so its pivot is zero)",
      solvent::SolverError);

  // A refresh that meets a zero pivot leaves nothing to apply, not the old factors.
  pc->setup(op(two_by_two(2, 1, 1, 2)));
  CHECK_THROWS_WITH_AS(pc->refresh(op(two_by_two(1, 1, 1, 1))), "ilu0: zero pivot in row 1",
                       solvent::SolverError);
  std::vector<double> r(2, 1.0), z(2);
  CHECK_THROWS_WITH_AS(pc->apply(std::span<const double>(r), std::span<double>(z)),
                       "apply() was called before setup()", solvent::SolverError);
}

TEST_CASE("ilu0 declares CSR only, one parameter (the overlap over ranks), and its vectors are checked") {
  auto pc = tk::make_preconditioner("ilu0");
  CHECK(pc->forms() == std::vector<solvent::OperatorForm>{
                           {solvent::OperatorKind::Csr, solvent::ScalarKind::Real},
                           {solvent::OperatorKind::Csr, solvent::ScalarKind::Complex}});
  const auto schema = tk::schema_of("ilu0", solvent::PluginKind::Preconditioner);
  REQUIRE(schema.size() == 1);
  CHECK(schema[0].name == "overlap");
  CHECK_THROWS_WITH_AS(
      pc->setup(std::make_shared<const solvent::Operator>(solvent::DenseMatrix<double>(2, 2))),
      "the preconditioner cannot be built from a real dense operator (it takes: real csr, "
      "complex csr)",
      solvent::UnsupportedOperator);
  solvent::CsrMatrix<double> wide = two_by_two(1, 0, 0, 1);
  wide.cols = 3;
  CHECK_THROWS_WITH_AS(pc->setup(op(wide)), "ilu0: the matrix is 2 x 3, not square",
                       solvent::SolverError);
  solvent::test::check_apply_refusals("ilu0", op(two_by_two(2, 1, 1, 2)));
}

// The package's README quotes these solves: what ILU(0) gains over no preconditioner on a
// real and a complex operator, and that jacobi, a mere scaling where the diagonal is
// constant, gains nothing.
TEST_CASE("bicgstab with ilu0, jacobi and none: the iterations the README quotes") {
  const std::string readme = SOLVENT_ILU_README;
  const auto cd = solvent::test::convection_diffusion(24, 20.0);
  const auto h = solvent::test::helmholtz_box(20, 20, 20, 5.0);
  std::map<std::string, std::pair<double, double>> iterations;
  for (const char* pc : {"none", "jacobi", "ilu0"}) {
    std::vector<double> x(cd.rows);
    std::vector<complex> z(h.rows);
    const auto real = solvent::test::solve_with<double>("bicgstab", {{"tolerance", 1e-10}}, op(cd),
                                                        random_vector<double>(cd.rows, 1), x, pc);
    const auto cplx = solvent::test::solve_with<complex>("bicgstab", {{"tolerance", 1e-10}}, op(h),
                                                         random_vector<complex>(h.rows, 1), z, pc);
    CHECK(real.converged);
    CHECK(cplx.converged);
    iterations[pc] = {double(real.iterations), double(cplx.iterations)};
  }
  solvent::test::check_quoted_list(readme, "`convection_diffusion(24, 20.0)` took ",
                                   {iterations["none"].first});
  solvent::test::check_quoted_list(readme, "iterations without a preconditioner and ",
                                   {iterations["ilu0"].first});
  solvent::test::check_quoted_list(readme, "(complex) ",
                                   {iterations["none"].second, iterations["ilu0"].second}, " and ");
  solvent::test::check_quoted_list(
      readme, "round-off alone: ", {iterations["jacobi"].first, iterations["jacobi"].second},
      " and ");
}
