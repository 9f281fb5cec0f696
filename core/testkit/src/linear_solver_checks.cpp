// The LinearSolver conformance checks: any solver, fed the same systems, judged by what it
// computes rather than by what it reports. Every solve's residual is recomputed here.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace solvent::testkit {

namespace {

using Problems = std::vector<std::string>;

template <class T>
T draw(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  if constexpr (std::is_same_v<T, complex>)
    return {u(rng), u(rng)};
  else
    return u(rng);
}

template <class T>
T conjugate(T v) {
  if constexpr (std::is_same_v<T, complex>)
    return std::conj(v);
  else
    return v;
}

// Direct solvers get the first three; iterative solvers the last, which every Krylov method
// (CG included) and every stationary method must solve.
enum class Family { Random, BadlyScaled, NearlySingular, HermitianDominant };

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
    case Family::HermitianDominant:
      // Hermitian, strictly diagonally dominant with a positive diagonal (off-diagonal
      // moduli are below sqrt 2): positive definite, and Jacobi converges too.
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j) a(i, j) = conjugate(a(j, i));
        a(i, i) = T(2.0 * double(n) + 1.0);
      }
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
    case OperatorKind::MatrixFree:
      break;
  }
  throw Error("testkit: dense matrices are made into dense, CSR and banded operators only");
}

// A random symmetric, strictly diagonally dominant seven-point operator on an m^3 grid and
// its dense form (A u = c0 u - sum of c_d times the neighbours).
template <class T>
std::pair<Stencil7<T>, DenseMatrix<T>> make_stencil(std::size_t m, std::mt19937_64& rng) {
  Stencil7<T> s(m, m, m);
  const std::size_t n = s.size();
  DenseMatrix<T> a(n, n);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  const std::size_t step[3] = {1, m, m * m};
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t j = 0; j < m; ++j)
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t r = s.index(i, j, k);
        const bool has_next[3] = {i + 1 < m, j + 1 < m, k + 1 < m};
        // One weight per edge, written on both of its ends: the operator is symmetric.
        for (int axis = 0; axis < 3; ++axis) {
          if (!has_next[axis]) continue;
          const T w = T(u(rng));
          const std::size_t q = r + step[axis];
          s.c[2 * axis + 2][r] = w;  // the neighbour in + direction
          s.c[2 * axis + 1][q] = w;  // seen from q, r is its neighbour in - direction
          a(r, q) = -w;
          a(q, r) = -w;
        }
      }
  for (std::size_t r = 0; r < n; ++r) {
    double sum = 0;
    for (int d = 1; d < 7; ++d) sum += std::abs(s.c[d][r]);
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
  if (info != 0) throw Error("testkit: LAPACK could not solve its own reference system");
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
double dense_relative_residual(const DenseMatrix<T>& a, const std::vector<T>& x,
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

// How far two correct computations of ||b - A x|| / ||b|| may differ by rounding alone:
// each row's sum carries an error up to n eps sum_j |a_ij x_j| + |b_i|, which on a badly
// scaled system is as large as the residual itself.
template <class T>
double residual_uncertainty(const DenseMatrix<T>& a, const std::vector<T>& x,
                            const std::vector<T>& b) {
  double e2 = 0, b2 = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    double row = std::abs(b[i]);
    for (std::size_t j = 0; j < a.cols; ++j) row += std::abs(a(i, j) * x[j]);
    e2 += row * row;
    b2 += std::norm(b[i]);
  }
  return double(a.cols + 1) * std::numeric_limits<double>::epsilon() * std::sqrt(e2 / b2);
}

std::string form_text(OperatorKind kind, ScalarKind scalar) {
  return fmt::format("{} {}", to_string(kind), to_string(scalar));
}

// Sets the solver up with `op` and solves two right-hand sides (solve must reuse what setup
// prepared), recording what is wrong in `out`. `impossible`: max_iterations was cut so far
// that the solver cannot reach its tolerance — only honesty is judged.
template <class T>
void check_system(LinearSolver& solver, const DenseMatrix<T>& a, const Operator& op,
                  const LinearSolverChecks& c, std::mt19937_64& rng, const std::string& what,
                  bool impossible, Problems& out) {
  const std::string where = fmt::format("{}, {} system, n = {}", what,
                                        form_text(kind_of(op), scalar_kind_of<T>), a.rows);
  try {
    solver.setup(std::make_shared<const Operator>(op));
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    out.push_back(fmt::format("{}: {}, but setup refused it: {}", where,
                              solver.accepts(form_of(op)) ? "it declares this form"
                                                          : "the core converts this form for it",
                              e.what()));
    return;
  }
  const double eps = std::numeric_limits<double>::epsilon();
  for (int rhs = 0; rhs < 2; ++rhs) {
    std::vector<T> b(a.rows);
    for (auto& v : b) v = draw<T>(rng);
    std::vector<T> x(a.rows, T{});
    SolveStats stats;
    try {
      stats = solver.solve(std::span<const T>(b), std::span<T>(x));
    } catch (const DeviceUnavailable&) {
      throw;
    } catch (const std::exception& e) {
      out.push_back(fmt::format("{}: solve threw: {}", where, e.what()));
      return;
    }
    // The residual of the operator the solver was given, through the SDK's own computation
    // (every storage), which the dense form cross-checks to rounding.
    const double truth = solvent::relative_residual(op, std::span<const T>(b), std::span<const T>(x));
    const double dense_truth = dense_relative_residual(a, x, b);
    if (std::abs(truth - dense_truth) > 0.1 * dense_truth + residual_uncertainty(a, x, b) + 1e-12)
      out.push_back(fmt::format("{}: testkit error: the {} residual {:.3g} is not the dense one {:.3g}",
                                where, to_string(kind_of(op)), truth, dense_truth));
    if (!std::isfinite(truth)) {
      out.push_back(fmt::format("{}: the solution it returned is not finite", where));
      return;
    }
    const double limit = 10.0 * c.tolerance;
    if (impossible) {
      if (stats.converged && truth > limit)
        out.push_back(fmt::format(
            "{}: with max_iterations = 2 it reports convergence, but the true relative residual "
            "is {:.3g}, above 10 x the tolerance {:.3g}",
            where, truth, c.tolerance));
    } else if (c.direct) {
      if (!stats.converged)
        out.push_back(fmt::format("{}: a direct solve reported no success ('{}')", where,
                                  stats.status));
      const double be = backward_error(a, x, b);
      if (be > 10.0 * double(a.rows) * eps)
        out.push_back(fmt::format("{}: backward error {:.3g}, above 10 n eps = {:.3g}", where, be,
                                  10.0 * double(a.rows) * eps));
      if (what != "nearly singular") {
        const auto ref = lapack_solve(a, b);
        double d = 0, nref = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
          d = std::max(d, std::abs(x[i] - ref[i]));
          nref = std::max(nref, std::abs(ref[i]));
        }
        if (d > 1e-8 * nref)
          out.push_back(fmt::format("{}: the solution differs from LAPACK's by {:.3g} (relative)",
                                    where, d / nref));
      }
    } else if (!stats.converged) {
      out.push_back(fmt::format(
          "{}: no convergence on a well-conditioned Hermitian positive definite system "
          "(status '{}', true relative residual {:.3g})",
          where, stats.status, truth));
    } else if (truth > limit) {
      out.push_back(fmt::format(
          "{}: reports convergence, but the true relative residual is {:.3g}, above 10 x the "
          "tolerance {:.3g}",
          where, truth, c.tolerance));
    }
    if (!stats.residual_history.empty() &&
        static_cast<std::int64_t>(stats.residual_history.size()) != stats.iterations + 1)
      out.push_back(fmt::format(
          "{}: its residual history has {} entries for {} iterations; it must hold the initial "
          "residual and one entry per iteration",
          where, stats.residual_history.size(), stats.iterations));
    if (std::isnan(stats.residual)) {
      // The core fills in the residual a direct solver leaves out; an iteration's stopping
      // rule is the residual. NaN here is a residual never computed.
      out.push_back(fmt::format("{}: reports no residual (NaN)", where));
    } else if (std::abs(stats.residual - truth) >
               0.1 * truth + residual_uncertainty(a, x, b) + 1e-12)
      out.push_back(fmt::format("{}: reports a relative residual of {:.3g}; the true one is {:.3g}",
                                where, stats.residual, truth));
  }
}

template <class T>
void check_form(LinearSolver& solver, OperatorKind kind, const LinearSolverChecks& c,
                bool impossible, Problems& out) {
  std::mt19937_64 rng(20261122);
  if (kind == OperatorKind::Stencil7) {
    auto [s, a] = make_stencil<T>(5, rng);
    check_system(solver, a, Operator(s), c, rng, "symmetric diagonally dominant stencil",
                 impossible, out);
    return;
  }
  std::vector<std::pair<Family, const char*>> families;
  if (c.direct && !impossible)
    families = {{Family::Random, "random"},
                {Family::BadlyScaled, "badly scaled"},
                {Family::NearlySingular, "nearly singular"}};
  else
    families = {{Family::HermitianDominant, "Hermitian diagonally dominant"}};
  for (const auto& [f, name] : families) {
    auto a = make_matrix<T>(f, c.n, rng);
    check_system(solver, a, to_operator(a, kind), c, rng, name, impossible, out);
  }
}

// The 3 x 3 identity in a form: what a solver that refuses the form must refuse cleanly.
template <class T>
Operator identity(OperatorKind kind) {
  if (kind == OperatorKind::Stencil7) {
    Stencil7<T> st(3, 3, 3);
    for (auto& v : st.c[0]) v = T(1.0);
    return st;
  }
  DenseMatrix<T> eye(3, 3);
  for (std::size_t i = 0; i < 3; ++i) eye(i, i) = T(1.0);
  return to_operator(eye, kind);
}

constexpr OperatorKind all_kinds[] = {OperatorKind::Dense, OperatorKind::Csr, OperatorKind::Banded,
                                      OperatorKind::Stencil7};
constexpr ScalarKind all_scalars[] = {ScalarKind::Real, ScalarKind::Complex};

bool has_key(const Schema& schema, const std::string& key) {
  return std::any_of(schema.begin(), schema.end(), [&](const ParamSpec& p) { return p.name == key; });
}

// Every form the solver declares, and with `converted` also every form the core converts for
// it: what a user gets from any storage.
void check_forms(LinearSolver& solver, const LinearSolverChecks& c, bool impossible,
                 bool converted, Problems& out) {
  for (auto kind : all_kinds)
    for (auto scalar : all_scalars) {
      if (!solver.accepts({kind, scalar}) &&
          !(converted && reachable_form(solver.forms(), {kind, scalar})))
        continue;
      if (scalar == ScalarKind::Real)
        check_form<double>(solver, kind, c, impossible, out);
      else
        check_form<complex>(solver, kind, c, impossible, out);
    }
}

}  // namespace

std::vector<std::string> linear_solver_problems(const std::string& name, const Settings& s,
                                                const LinearSolverChecks& c) {
  Problems out;
  auto solver = make_linear_solver(name, s);
  if (c.real && !solver->accepts({c.kind, ScalarKind::Real}))
    out.push_back(fmt::format("does not accept {}, which it was expected to",
                              form_text(c.kind, ScalarKind::Real)));
  if (c.complex && !solver->accepts({c.kind, ScalarKind::Complex}))
    out.push_back(fmt::format("does not accept {}, which it was expected to",
                              form_text(c.kind, ScalarKind::Complex)));
  check_forms(*solver, c, false, true, out);

  // A form that neither the solver nor a conversion provides must be refused with
  // UnsupportedOperator, not misread.
  for (auto kind : all_kinds)
    for (auto scalar : all_scalars) {
      if (reachable_form(solver->forms(), {kind, scalar})) continue;
      const Operator op =
          scalar == ScalarKind::Real ? identity<double>(kind) : identity<complex>(kind);
      try {
        solver->setup(std::make_shared<const Operator>(op));
        out.push_back(fmt::format("says it does not take {} operators, but setup accepted one",
                                  form_text(kind, scalar)));
      } catch (const UnsupportedOperator&) {
      } catch (const std::exception& e) {
        out.push_back(fmt::format(
            "refused a {} operator, which it does not take, with '{}' instead of an "
            "UnsupportedOperator error",
            form_text(kind, scalar), e.what()));
      }
    }

  // An iterative solver held to 2 iterations cannot reach its tolerance on these systems:
  // reporting convergence there is reporting a wrong answer as right.
  if (!c.direct && has_key(schema_of(name, PluginKind::LinearSolver), "max_iterations")) {
    Settings cut = s;
    cut["max_iterations"] = std::int64_t{2};
    auto held = make_linear_solver(name, cut);
    check_forms(*held, c, true, false, out);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void check_linear_solver(const std::string& name, const Settings& s, const LinearSolverChecks& c,
                         std::source_location where) {
  for (const auto& problem : linear_solver_problems(name, s, c))
    ADD_FAIL_CHECK_AT(where.file_name(), static_cast<int>(where.line()), name << ": " << problem);
}

}  // namespace solvent::testkit
