// jacobi: the preconditioner conformance checks; z = r ./ diag(A) on every storage it
// declares, real and complex, in place and after a refresh; the refusals (a zero diagonal, a
// storage it does not take, a misused apply) with their exact messages.
#include "test_operators.hpp"

#include <solvent/testkit.hpp>

#include <solvent_test/preconditioner_checks.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tk = solvent::testkit;
using namespace jacobi_test;
using solvent::complex;
using solvent::test::applied;

namespace {

// max_i |z_i - r_i / d_i| / |r_i / d_i|: jacobi multiplies by the stored 1 / d_i, which
// rounds differently from a division by a few units in the last place.
template <class T>
double max_relative_error(const std::vector<T>& z, const std::vector<T>& r,
                          const std::vector<T>& d) {
  double worst = 0.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const T expected = r[i] / d[i];
    worst = std::max(worst, std::abs(z[i] - expected) / std::abs(expected));
  }
  return worst;
}

template <class T>
solvent::CsrMatrix<T> csr_of(const std::vector<std::vector<T>>& rows_of_entries) {
  solvent::CsrMatrix<T> a;
  a.rows = a.cols = rows_of_entries.size();
  a.row_ptr.push_back(0);
  for (const auto& row : rows_of_entries) {
    for (std::size_t j = 0; j < row.size(); ++j)
      if (row[j] != T(0)) {
        a.col_idx.push_back(static_cast<std::int32_t>(j));
        a.values.push_back(row[j]);
      }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
  }
  return a;
}

class Identity final : public solvent::MatrixFreeOperator<double> {
 public:
  std::size_t rows() const override { return 3; }
  void apply(std::span<const double> x, std::span<double> y) const override {
    std::copy(x.begin(), x.end(), y.begin());
  }
};

}  // namespace

TEST_CASE("jacobi passes the preconditioner conformance checks") {
  tk::check_preconditioner("jacobi");
}

TEST_CASE_TEMPLATE("jacobi's apply is r ./ diag(A) on every storage, also in place", T, double,
                   complex) {
  const std::size_t n = 36;
  const auto r = random_vector<T>(n, 1);
  for (const auto& [name, a] :
       {std::pair{"dense", dense<T>(n)}, std::pair{"csr", csr<T>(n)},
        std::pair{"banded", banded<T>(n)}, std::pair{"stencil7", stencil<T>()}}) {
    CAPTURE(name);
    auto pc = tk::make_preconditioner("jacobi");
    pc->setup(a.op);
    const auto z = applied(*pc, r);
    CHECK(max_relative_error(z, r, a.diagonal) <= 1e-14);
    auto w = r;
    pc->apply(std::span<const T>(w), std::span<T>(w));
    CHECK(w == z);
  }
}

TEST_CASE_TEMPLATE("an inactive seven-point node keeps its residual (its diagonal is 1)", T, double,
                   complex) {
  auto pc = tk::make_preconditioner("jacobi");
  pc->setup(stencil<T>().op);
  const auto r = random_vector<T>(36, 2);
  CHECK(applied(*pc, r)[inactive_node] == r[inactive_node]);
}

TEST_CASE_TEMPLATE("refresh takes the new diagonal", T, double, complex) {
  auto pc = tk::make_preconditioner("jacobi");
  pc->setup(csr<T>(36).op);
  const auto scaled = csr<T>(36, 2.5);
  pc->refresh(scaled.op);
  const auto r = random_vector<T>(36, 3);
  CHECK(max_relative_error(applied(*pc, r), r, scaled.diagonal) <= 1e-14);
  // Another storage and size: refresh is a setup.
  const auto other = banded<T>(10);
  pc->refresh(other.op);
  const auto r10 = random_vector<T>(10, 4);
  CHECK(max_relative_error(applied(*pc, r10), r10, other.diagonal) <= 1e-14);
}

TEST_CASE("a zero diagonal is refused, naming the row") {
  auto pc = tk::make_preconditioner("jacobi");
  using Row = std::vector<double>;
  // Row 3 has no diagonal entry at all; row 2 stores a zero (messages count from 1).
  const auto missing = csr_of<double>({Row{2, 1, 0}, Row{1, 2, 1}, Row{0, 1, 0}});
  CHECK_THROWS_WITH_AS(pc->setup(std::make_shared<const solvent::Operator>(missing)),
                       "jacobi: the diagonal of row 3 of the matrix is zero", solvent::SolverError);
  auto stored = missing;
  stored.values[3] = 0.0;
  CHECK_THROWS_WITH_AS(pc->setup(std::make_shared<const solvent::Operator>(stored)),
                       "jacobi: the diagonal of row 2 of the matrix is zero", solvent::SolverError);
  solvent::DenseMatrix<complex> d(2, 2);
  d(1, 1) = 1.0;
  CHECK_THROWS_WITH_AS(pc->setup(std::make_shared<const solvent::Operator>(d)),
                       "jacobi: the diagonal of row 1 of the matrix is zero", solvent::SolverError);
  solvent::BandedMatrix<double> b(4, 1, 1);
  for (std::size_t i = 0; i < 3; ++i) b.at(i, i) = 1.0;
  CHECK_THROWS_WITH_AS(pc->setup(std::make_shared<const solvent::Operator>(b)),
                       "jacobi: the diagonal of row 4 of the matrix is zero", solvent::SolverError);
  // A failed setup leaves nothing to apply.
  std::vector<double> r(4, 1.0), z(4);
  CHECK_THROWS_WITH_AS(pc->apply(std::span<const double>(r), std::span<double>(z)),
                       "apply() was called before setup()", solvent::SolverError);
}

TEST_CASE("jacobi declares every assembled storage, no parameters; its vectors are checked") {
  auto pc = tk::make_preconditioner("jacobi");
  std::vector<solvent::OperatorForm> expected;
  for (auto kind : {solvent::OperatorKind::Csr, solvent::OperatorKind::Dense,
                    solvent::OperatorKind::Banded, solvent::OperatorKind::Stencil7})
    for (auto scalar : {solvent::ScalarKind::Real, solvent::ScalarKind::Complex})
      expected.push_back({kind, scalar});
  CHECK(pc->forms() == expected);
  CHECK(tk::schema_of("jacobi", solvent::PluginKind::Preconditioner).empty());

  const solvent::MatrixFree<double> free = std::make_shared<const Identity>();
  CHECK_THROWS_WITH_AS(pc->setup(std::make_shared<const solvent::Operator>(free)),
                       doctest::Contains("the preconditioner cannot be built from a real "
                                         "matrix-free operator (it takes: real csr, complex csr, "
                                         "real dense,"),
                       solvent::UnsupportedOperator);
  solvent::test::check_apply_refusals("jacobi", csr<double>(3).op);
}
