// The pieces that keep BiCGSTAB(l) honest in floating point: the minimal-residual solve that
// drops numerically dependent residuals, and the monitor that never hands back an iterate
// worse than the start.
#include <solvent_krylov/host_space.hpp>
#include <solvent_krylov/monitor.hpp>
#include <solvent_krylov/small_dense_solve.hpp>

#include <solvent_test/reference_kernels.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace solvent;
using namespace solvent::krylov;
using namespace solvent::test;

namespace {

// Columns r_1..r_l of length n, and the Gram system of min ||r0 - sum gamma_j r_j||.
template <class T>
struct LeastSquares {
  std::size_t n, l;
  std::vector<std::vector<T>> r;  // r[0] = r0, r[1..l]
  std::vector<T> gram() const {
    std::vector<T> g(l * l);
    for (std::size_t i = 0; i < l; ++i)
      for (std::size_t j = 0; j < l; ++j) g[i * l + j] = dot(r[i + 1], r[j + 1]);
    return g;
  }
  std::vector<T> rhs() const {
    std::vector<T> c(l);
    for (std::size_t i = 0; i < l; ++i) c[i] = dot(r[i + 1], r[0]);
    return c;
  }
  std::vector<T> residual(const std::vector<T>& gamma) const {
    std::vector<T> e = r[0];
    for (std::size_t j = 0; j < l; ++j)
      for (std::size_t k = 0; k < n; ++k) e[k] -= gamma[j] * r[j + 1][k];
    return e;
  }
  static T dot(const std::vector<T>& x, const std::vector<T>& y) {
    T s = T(0);
    for (std::size_t k = 0; k < x.size(); ++k) s += conjugate(x[k]) * y[k];
    return s;
  }
  static double norm(const std::vector<T>& x) { return std::sqrt(real_part(dot(x, x))); }
};

template <class T>
LeastSquares<T> random_problem(std::size_t n, std::size_t l) {
  LeastSquares<T> p{n, l, {}};
  for (std::size_t j = 0; j <= l; ++j) p.r.push_back(random_vector<T>(n, 100 + j));
  return p;
}

}  // namespace

TEST_CASE_TEMPLATE(
    "the minimal-residual solve: the least-squares solution on independent residuals", T, double,
    complex) {
  auto p = random_problem<T>(60, 8);
  // Columns of very different lengths, as r_j grows like ||B||^j: the scaling absorbs them.
  for (std::size_t j = 1; j <= p.l; ++j)
    for (auto& v : p.r[j]) v *= std::pow(10.0, double(j));
  std::vector<T> gamma = p.rhs();
  CHECK(solve_minimal_residual(p.gram(), gamma, p.l) == p.l);
  // The residual of a least-squares solution is orthogonal to every column.
  const auto e = p.residual(gamma);
  for (std::size_t j = 1; j <= p.l; ++j)
    CHECK(std::abs(p.dot(p.r[j], e)) <= 1e-12 * p.norm(p.r[j]) * p.norm(p.r[0]));
}

TEST_CASE_TEMPLATE(
    "the minimal-residual solve drops a residual within rounding of the others' span", T, double,
    complex) {
  auto p = random_problem<T>(60, 4);
  // r_2 = r_1 + 1e-8 noise: the squared sine of its angle to r_1 is about 1e-16, below the
  // 1e-12 kept. Elimination on the Gram matrix would return coefficients near 1e8 of
  // opposite signs on r_1 and r_2.
  const auto noise = random_vector<T>(p.n, 7);
  for (std::size_t k = 0; k < p.n; ++k) p.r[2][k] = p.r[1][k] + 1e-8 * noise[k];
  std::vector<T> gamma = p.rhs();
  CHECK(solve_minimal_residual(p.gram(), gamma, p.l) == 3);
  CHECK((gamma[0] == T(0)) != (gamma[1] == T(0)));  // one of r_1, r_2 dropped
  CHECK(gamma[3] != T(0));                          // r_l (omega) always kept
  double largest = 0.0;
  for (const T& g : gamma) largest = std::max(largest, std::abs(g));
  CHECK(largest < 10.0);
  // Still the minimum over the whole span, to the dropped direction's 1e-8.
  const auto e = p.residual(gamma);
  for (std::size_t j = 1; j <= p.l; ++j)
    CHECK(std::abs(p.dot(p.r[j], e)) <= 1e-7 * p.norm(p.r[j]) * p.norm(p.r[0]));
}

TEST_CASE("the minimal-residual solve refuses a vanished r_l and a non-finite Gram matrix") {
  auto p = random_problem<double>(20, 3);
  std::fill(p.r[3].begin(), p.r[3].end(), 0.0);
  std::vector<double> gamma = p.rhs();
  CHECK(solve_minimal_residual(p.gram(), gamma, p.l) == 0);

  p = random_problem<double>(20, 3);
  p.r[1][4] = std::numeric_limits<double>::quiet_NaN();
  gamma = p.rhs();
  CHECK(solve_minimal_residual(p.gram(), gamma, p.l) == 0);
}

namespace {

// B = 2 I on four unknowns and r0 = (1, 1, 1, 1): the monitor tests' system, whose true
// residuals are known.
struct TwiceIdentity {
  CsrMatrix<double> a = [] {
    CsrMatrix<double> m;
    m.rows = m.cols = 4;
    m.row_ptr = {0, 1, 2, 3, 4};
    m.col_idx = {0, 1, 2, 3};
    m.values = {2, 2, 2, 2};
    return m;
  }();
  HostSpace<double> s{MatrixView<double>(&a), nullptr};
  const std::vector<double> r0 = {1, 1, 1, 1};
  // The monitor of a method run on it (||r0|| = 2).
  Monitor<HostSpace<double>> monitor(const KrylovOptions& o) {
    return {s, [this](const auto& in, auto& out) { s.apply(in, out); }, r0, 2.0, o};
  }
};

}  // namespace

TEST_CASE("record_step keeps the best iterate that the method has since overwritten") {
  // B = 2 I, r0 = (1, 1, 1, 1). A method writing each iterate into the other of two vectors
  // (as CG does): the residual falls at iterations 1 and 2 and rises at 3 and 4, by which
  // time iteration 2's vector holds iteration 4. The best, iteration 2, comes back.
  TwiceIdentity system;
  KrylovOptions o;
  o.max_iterations = 4;
  auto mon = system.monitor(o);
  std::vector<double> y(4, 0.0), before(4, 0.0);
  const auto step = [&](double value, double residual) {
    std::fill(before.begin(), before.end(), value);  // the new iterate, into the other vector
    std::swap(y, before);
    return mon.record_step(residual, y, before, nullptr);
  };
  CHECK(step(0.25, 1.0) == Next::iterate);
  CHECK(step(0.4, 0.4) == Next::iterate);
  CHECK(step(0.3, 0.8) == Next::iterate);
  CHECK(step(0.1, 1.6) == Next::stop);
  CHECK(mon.status() == "max_iterations");
  mon.restore_best(y);
  CHECK(y == std::vector<double>(4, 0.4));
}

TEST_CASE("an unconverged solve never returns an iterate worse than the start") {
  // B = 2 I. The iterate recorded as best (a recurrence said 1e-3) is far off: its true
  // residual is larger than the start's, so the start comes back, and the warning says why.
  TwiceIdentity system;
  KrylovOptions o;
  o.max_iterations = 2;
  std::string warning;
  o.on_warning = [&](const std::string& w) { warning = w; };
  auto mon = system.monitor(o);

  std::vector<double> y = {5, 5, 5, 5};  // r0 - B y = -9 (1, 1, 1, 1)
  CHECK(mon.record(2e-3, y) == Next::iterate);
  y = {0.25, 0.25, 0.25, 0.25};  // the true residual 0.5 (1, 1, 1, 1), recorded as worse
  CHECK(mon.record(1.5, y) == Next::stop);
  CHECK(mon.status() == "max_iterations");
  mon.restore_best(y);
  CHECK(y == std::vector<double>(4, 0.0));
  CHECK(warning ==
        "the best iterate by the updated residual (iteration 1, 1.000e-03) has true relative "
        "residual 9.000e+00, above the initial guess's 1.000e+00: the initial guess is returned");

  // A best iterate whose true residual is below the start's is returned as it is.
  auto honest = system.monitor(o);
  warning.clear();
  y = {0.25, 0.25, 0.25, 0.25};
  CHECK(honest.record(1.0, y) == Next::iterate);
  y = {5, 5, 5, 5};
  CHECK(honest.record(18.0, y) == Next::stop);
  honest.restore_best(y);
  CHECK(y == std::vector<double>(4, 0.25));
  CHECK(warning.empty());
}
