// The LinearSolver conformance checks: any solver, fed the same systems, compared with
// LAPACK's dense solve.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <lapacke.h>

#include <cmath>
#include <random>

namespace solvent::testkit {

namespace {

template <class T>
T draw(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, complex>)
    return {u(rng), u(rng)};
  else
    return u(rng);
}

enum class Family { Random, BadlyScaled, NearlySingular, DiagonallyDominant };

template <class T>
DenseMatrix<T> make_matrix(Family f, std::size_t n, std::mt19937_64& rng) {
  DenseMatrix<T> a(n, n);
  for (auto& v : a.values) v = draw<T>(rng);
  switch (f) {
    case Family::Random:
      break;
    case Family::BadlyScaled:
      // Row scales spanning 16 orders of magnitude: partial pivoting must cope.
      for (std::size_t i = 0; i < n; ++i) {
        const double s = std::pow(10.0, -8.0 + 16.0 * double(i % 17) / 16.0);
        for (std::size_t j = 0; j < n; ++j) a(i, j) *= s;
      }
      break;
    case Family::NearlySingular:
      // The last row is the first one perturbed by 1e-12: condition number ~1e12.
      for (std::size_t j = 0; j < n; ++j) a(n - 1, j) = a(0, j) + 1e-12 * draw<T>(rng);
      break;
    case Family::DiagonallyDominant:
      for (std::size_t i = 0; i < n; ++i) a(i, i) = T(double(n) + 1.0);
      break;
  }
  return a;
}

template <class T>
Operator to_operator(const DenseMatrix<T>& a, OperatorKind kind) {
  const std::size_t n = a.rows;
  switch (kind) {
    case OperatorKind::Dense:
      return a;
    case OperatorKind::Csr: {
      CsrMatrix<T> c;
      c.rows = c.cols = n;
      c.row_ptr.push_back(0);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j)
          if (a(i, j) != T{}) {
            c.col_idx.push_back(static_cast<std::int32_t>(j));
            c.values.push_back(a(i, j));
          }
        c.row_ptr.push_back(static_cast<std::int32_t>(c.values.size()));
      }
      return c;
    }
    case OperatorKind::Banded: {
      BandedMatrix<T> b(n, n - 1, n - 1);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) b.at(i, j) = a(i, j);
      return b;
    }
    case OperatorKind::Stencil7:
      break;
  }
  throw Error("testkit: dense matrices are not converted to Stencil7");
}

// A random diagonally dominant seven-point operator and its dense form.
template <class T>
std::pair<Stencil7<T>, DenseMatrix<T>> make_stencil(std::size_t m, std::mt19937_64& rng) {
  Stencil7<T> s(m, m, m);
  const std::size_t n = s.size();
  DenseMatrix<T> a(n, n);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t r = s.index(i, j, k);
        const std::ptrdiff_t off[7] = {0,
                                       -1,
                                       1,
                                       -std::ptrdiff_t(m),
                                       std::ptrdiff_t(m),
                                       -std::ptrdiff_t(m * m),
                                       std::ptrdiff_t(m * m)};
        const bool inside[7] = {true, i > 0, i + 1 < m, j > 0, j + 1 < m, k > 0, k + 1 < m};
        double sum = 0;
        for (int d = 1; d < 7; ++d) {
          if (!inside[d]) continue;
          s.c[d][r] = T(u(rng));
          sum += std::abs(s.c[d][r]);
          a(r, std::size_t(std::ptrdiff_t(r) + off[d])) = -s.c[d][r];
        }
        s.c[0][r] = T(sum + 1.0);
        a(r, r) = s.c[0][r];
      }
  return {std::move(s), std::move(a)};
}

template <class T>
std::vector<T> lapack_solve(DenseMatrix<T> a, std::vector<T> b) {
  const auto n = static_cast<lapack_int>(a.rows);
  std::vector<lapack_int> piv(a.rows);
  lapack_int info;
  if constexpr (std::is_same_v<T, double>)
    info = LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, a.values.data(), n, piv.data(), b.data(), 1);
  else
    info = LAPACKE_zgesv(LAPACK_ROW_MAJOR, n, 1,
                         reinterpret_cast<lapack_complex_double*>(a.values.data()), n, piv.data(),
                         reinterpret_cast<lapack_complex_double*>(b.data()), 1);
  REQUIRE(info == 0);
  return b;
}

template <class T>
double backward_error(const DenseMatrix<T>& a, const std::vector<T>& x, const std::vector<T>& b) {
  double rmax = 0, amax = 0, xmax = 0, bmax = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    T r = b[i];
    double rowsum = 0;
    for (std::size_t j = 0; j < a.cols; ++j) {
      r -= a(i, j) * x[j];
      rowsum += std::abs(a(i, j));
    }
    rmax = std::max(rmax, std::abs(r));
    amax = std::max(amax, rowsum);
    xmax = std::max(xmax, std::abs(x[i]));
    bmax = std::max(bmax, std::abs(b[i]));
  }
  return rmax / (amax * xmax + bmax);
}

template <class T>
double relative_residual(const DenseMatrix<T>& a, const std::vector<T>& x,
                         const std::vector<T>& b) {
  double r2 = 0, b2 = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    T r = b[i];
    for (std::size_t j = 0; j < a.cols; ++j) r -= a(i, j) * x[j];
    r2 += std::norm(r);
    b2 += std::norm(b[i]);
  }
  return std::sqrt(r2 / b2);
}

template <class T>
void check_system(LinearSolver& solver, const DenseMatrix<T>& a, const Operator& op,
                  const LinearSolverChecks& c, std::mt19937_64& rng, const char* what) {
  INFO("system: " << what << ", n = " << a.rows << ", " << to_string(scalar_kind_of<T>));
  solver.setup(std::make_shared<const Operator>(op));
  // Two right-hand sides through one setup: solve must reuse what setup prepared.
  for (int rhs = 0; rhs < 2; ++rhs) {
    std::vector<T> b(a.rows);
    for (auto& v : b) v = draw<T>(rng);
    std::vector<T> x(a.rows, T{});
    const auto stats = solver.solve(std::span<const T>(b), std::span<T>(x));
    CHECK(stats.converged);
    if (c.direct) {
      const double eps = std::numeric_limits<double>::epsilon();
      CHECK(backward_error(a, x, b) <= 10.0 * double(a.rows) * eps);
      if (std::string(what) != "nearly singular") {
        auto ref = lapack_solve(a, b);
        double d = 0, nref = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          d = std::max(d, std::abs(x[i] - ref[i]));
          nref = std::max(nref, std::abs(ref[i]));
        }
        CHECK(d / nref <= 1e-8);
      }
    } else {
      CHECK(relative_residual(a, x, b) <= 10.0 * c.tolerance);
    }
  }
}

template <class T>
void check_scalar(LinearSolver& solver, const LinearSolverChecks& c) {
  std::mt19937_64 rng(20261122);
  if (c.kind == OperatorKind::Stencil7) {
    auto [s, a] = make_stencil<T>(5, rng);
    check_system(solver, a, Operator(s), c, rng, "diagonally dominant stencil");
    return;
  }
  const std::vector<std::pair<Family, const char*>> families =
      c.direct
          ? std::vector<std::pair<Family, const char*>>{{Family::Random, "random"},
                                                        {Family::BadlyScaled, "badly scaled"},
                                                        {Family::NearlySingular, "nearly singular"}}
          : std::vector<std::pair<Family, const char*>>{
                {Family::DiagonallyDominant, "diagonally dominant"}};
  for (const auto& [f, name] : families) {
    auto a = make_matrix<T>(f, c.n, rng);
    check_system(solver, a, to_operator(a, c.kind), c, rng, name);
  }
}

}  // namespace

void check_linear_solver(const std::string& name, const Settings& s, const LinearSolverChecks& c) {
  auto solver = make_linear_solver(name, s);
  if (c.real) {
    REQUIRE(solver->accepts(c.kind, ScalarKind::Real));
    check_scalar<double>(*solver, c);
  }
  if (c.complex) {
    REQUIRE(solver->accepts(c.kind, ScalarKind::Complex));
    check_scalar<complex>(*solver, c);
  }
  // An operator kind the solver says it does not take must be refused, not misread.
  for (auto kind :
       {OperatorKind::Dense, OperatorKind::Csr, OperatorKind::Banded, OperatorKind::Stencil7}) {
    if (solver->accepts(kind, ScalarKind::Real)) continue;
    Operator op;
    if (kind == OperatorKind::Stencil7) {
      Stencil7<double> st(3, 3, 3);
      for (auto& v : st.c[0]) v = 1.0;
      op = st;
    } else {
      DenseMatrix<double> eye(3, 3);
      for (std::size_t i = 0; i < 3; ++i) eye(i, i) = 1.0;
      op = to_operator(eye, kind);
    }
    INFO("operator kind " << to_string(kind) << " is not accepted, so setup must refuse it");
    CHECK_THROWS_AS(solver->setup(std::make_shared<const Operator>(op)), UnsupportedOperator);
  }
}

}  // namespace solvent::testkit
