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

// A dense matrix known to the solver by its action alone: how a solver that declares
// matrix-free operators gets the same systems as every other storage.
template <class T>
class DenseAction : public MatrixFreeOperator<T> {
 public:
  explicit DenseAction(DenseMatrix<T> a) : a_(std::move(a)) {}
  std::size_t rows() const override { return a_.rows; }
  void apply(std::span<const T> x, std::span<T> y) const override {
    for (std::size_t i = 0; i < a_.rows; ++i) {
      T sum{};
      for (std::size_t j = 0; j < a_.cols; ++j) sum += a_(i, j) * x[j];
      y[i] = sum;
    }
  }

 private:
  DenseMatrix<T> a_;
};

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
    case OperatorKind::MatrixFree:
      return Operator(std::in_place_type<MatrixFree<T>>, std::make_shared<const DenseAction<T>>(a));
    case OperatorKind::Stencil7:
      break;
  }
  throw Error(
      "testkit: dense matrices are made into dense, CSR, banded and matrix-free operators only");
}

// A random symmetric seven-point operator on an nx x ny x nz grid and its dense form (A u =
// c0 u - sum of c_d times the neighbours): a weighted graph Laplacian plus `shift` times the
// identity, so positive definite with smallest eigenvalue `shift`. Shift 1 makes it strictly
// diagonally dominant and easy; a small shift makes a Krylov method work for it. On an
// n x 1 x 1 grid it is tridiagonal, so ILU(0) is its exact LU.
template <class T>
std::pair<Stencil7<T>, DenseMatrix<T>> make_stencil(std::size_t nx, std::size_t ny,
                                                    std::size_t nz, std::mt19937_64& rng,
                                                    double shift = 1.0) {
  Stencil7<T> s(nx, ny, nz);
  const std::size_t n = s.size();
  DenseMatrix<T> a(n, n);
  std::uniform_real_distribution<double> u(0.1, 1.0);
  const std::size_t step[3] = {1, nx, nx * ny};
  for (std::size_t k = 0; k < nz; ++k)
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t i = 0; i < nx; ++i) {
        const std::size_t r = s.index(i, j, k);
        const bool has_next[3] = {i + 1 < nx, j + 1 < ny, k + 1 < nz};
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
    s.c[0][r] = T(sum + shift);
    a(r, r) = s.c[0][r];
  }
  return {std::move(s), std::move(a)};
}

// A's LU factorization by LAPACK: the reference solution of the direct checks and the exact
// preconditioner's M^{-1}.
template <class T>
class LuFactors {
 public:
  LuFactors() = default;
  explicit LuFactors(DenseMatrix<T> a) : f_(std::move(a)), piv_(f_.rows) {
    const auto n = static_cast<lapack_int>(f_.rows);
    lapack_int info;
    if constexpr (std::is_same_v<T, double>)
      info = LAPACKE_dgetrf(LAPACK_ROW_MAJOR, n, n, f_.values.data(), n, piv_.data());
    else
      info = LAPACKE_zgetrf(LAPACK_ROW_MAJOR, n, n,
                            reinterpret_cast<lapack_complex_double*>(f_.values.data()), n,
                            piv_.data());
    if (info != 0) throw Error("testkit: LAPACK could not factor its own reference system");
  }
  // x = A^{-1} x.
  void solve(std::span<T> x) const {
    const auto n = static_cast<lapack_int>(f_.rows);
    if constexpr (std::is_same_v<T, double>)
      LAPACKE_dgetrs(LAPACK_ROW_MAJOR, 'N', n, 1, f_.values.data(), n, piv_.data(), x.data(), 1);
    else
      LAPACKE_zgetrs(LAPACK_ROW_MAJOR, 'N', n, 1,
                     reinterpret_cast<const lapack_complex_double*>(f_.values.data()), n,
                     piv_.data(), reinterpret_cast<lapack_complex_double*>(x.data()), 1);
  }

 private:
  DenseMatrix<T> f_;
  std::vector<lapack_int> piv_;
};

template <class T>
std::vector<T> lapack_solve(DenseMatrix<T> a, std::vector<T> b) {
  LuFactors<T>(std::move(a)).solve(b);
  return b;
}

// M = A, factored: z = A^{-1} r, so a method that applies its preconditioner converges in an
// iteration or two on any system, and one that needs as many iterations as without it never
// applied it. M is built through the operator's action (A times each unit vector), so every
// storage, matrix-free included, gets the same preconditioner. Host memory only.
class ExactPreconditioner : public Preconditioner {
 public:
  std::vector<OperatorForm> forms() const override {
    std::vector<OperatorForm> all;
    for (auto kind : {OperatorKind::Dense, OperatorKind::Csr, OperatorKind::Banded,
                      OperatorKind::Stencil7, OperatorKind::MatrixFree})
      for (auto scalar : {ScalarKind::Real, ScalarKind::Complex}) all.push_back({kind, scalar});
    return all;
  }

 protected:
  void setup_impl(std::shared_ptr<const Operator> a) override {
    if (scalar_of(*a) == ScalarKind::Real)
      real_ = factor<double>(*a);
    else
      complex_ = factor<complex>(*a);
  }
  void apply_impl(std::span<const double> r, std::span<double> z) const override {
    solve(real_, r, z);
  }
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override {
    solve(complex_, r, z);
  }

 private:
  template <class T>
  static LuFactors<T> factor(const Operator& a) {
    const std::size_t n = rows_of(a);
    DenseMatrix<T> m(n, n);
    std::vector<T> e(n), column(n);
    for (std::size_t j = 0; j < n; ++j) {
      e[j] = T(1.0);
      solvent::apply(a, std::span<const T>(e), std::span<T>(column));
      for (std::size_t i = 0; i < n; ++i) m(i, j) = column[i];
      e[j] = T{};
    }
    return LuFactors<T>(std::move(m));
  }
  template <class T>
  static void solve(const LuFactors<T>& lu, std::span<const T> r, std::span<T> z) {
    if (z.data() != r.data()) std::copy(r.begin(), r.end(), z.begin());
    lu.solve(z);
  }

  LuFactors<double> real_;
  LuFactors<complex> complex_;
};

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
  const std::string where =
      fmt::format("{}, {} system, n = {}", what, form_text(kind_of(op), scalar_kind_of<T>), a.rows);
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
  // The second solve starts from the first one's solution, as an integrator's next step
  // starts from whatever its buffer held (the initial-guess contract): a solver that takes
  // x = 0 for granted instead of computing b - A x fails there.
  std::vector<T> x(a.rows, T{});
  for (int rhs = 0; rhs < 2; ++rhs) {
    std::vector<T> b(a.rows);
    for (auto& v : b) v = draw<T>(rng);
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
    const double truth =
        solvent::relative_residual(op, std::span<const T>(b), std::span<const T>(x));
    const double dense_truth = dense_relative_residual(a, x, b);
    if (std::abs(truth - dense_truth) > 0.1 * dense_truth + residual_uncertainty(a, x, b) + 1e-12)
      out.push_back(
          fmt::format("{}: testkit error: the {} residual {:.3g} is not the dense one {:.3g}",
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
        out.push_back(
            fmt::format("{}: a direct solve reported no success ('{}')", where, stats.status));
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
      out.push_back(
          fmt::format("{}: no convergence on a well-conditioned Hermitian positive definite system "
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
    auto [s, a] = make_stencil<T>(5, 5, 5, rng);
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
                                      OperatorKind::Stencil7, OperatorKind::MatrixFree};
constexpr ScalarKind all_scalars[] = {ScalarKind::Real, ScalarKind::Complex};

// Calls f(kind, T{}) for every form (kind, scalar type T) that `wanted` selects: the kit's
// checks are templates on the scalar, the forms a solver declares are values.
template <class Wanted, class F>
void for_each_form(Wanted wanted, F f) {
  for (auto kind : all_kinds)
    for (auto scalar : all_scalars) {
      if (!wanted(OperatorForm{kind, scalar})) continue;
      if (scalar == ScalarKind::Real)
        f(kind, 0.0);
      else
        f(kind, complex{});
    }
}

bool has_key(const Schema& schema, const std::string& key) {
  return std::any_of(schema.begin(), schema.end(),
                     [&](const ParamSpec& p) { return p.name == key; });
}

// Every form the solver declares, and with `converted` also every form the core converts for
// it: what a user gets from any storage.
void check_forms(LinearSolver& solver, const LinearSolverChecks& c, bool impossible, bool converted,
                 Problems& out) {
  for_each_form(
      [&](OperatorForm f) {
        return solver.accepts(f) || (converted && reachable_form(solver.forms(), f));
      },
      [&](OperatorKind kind, auto zero) {
        check_form<decltype(zero)>(solver, kind, c, impossible, out);
      });
}

// Whether the solver applies the preconditioner it is given, in one declared form: the same
// system solved without one and with a preconditioner exact for it. With `pc_name` empty
// that is the kit's M = A on the stencil with a small shift (216 unknowns, condition number
// ~100), which takes a Krylov method tens of iterations; otherwise the plugin `pc_name`
// (ILU(0), of the solver's device) on the tridiagonal chain of 216 unknowns with the same
// shift, where ILU(0) is the exact LU. With M = A a method that applies M converges in one
// or two iterations, so one that still needs more than 3, or more than a quarter of its
// iterations without, never applied it.
template <class T>
void check_preconditioned(const std::string& name, const Settings& s, OperatorKind kind,
                          const LinearSolverChecks& c, const std::string& pc_name, Problems& out) {
  std::mt19937_64 rng(20261123);
  auto [st, a] = pc_name.empty() ? make_stencil<T>(6, 6, 6, rng, 0.1)
                                 : make_stencil<T>(216, 1, 1, rng, 0.1);
  const auto op = std::make_shared<const Operator>(
      kind == OperatorKind::Stencil7 ? Operator(st) : to_operator(a, kind));
  const std::string where = fmt::format("{} system, n = {}, with a preconditioner",
                                        form_text(kind, scalar_kind_of<T>), a.rows);
  const std::string exact =
      pc_name.empty() ? "an exact one (M = A)"
                      : fmt::format("'{}', exact on this tridiagonal system,", pc_name);
  std::vector<T> b(a.rows), x;
  for (auto& v : b) v = draw<T>(rng);
  // A fresh solver each time, so nothing of the first solve helps the second.
  auto solve = [&](std::shared_ptr<Preconditioner> pc) {
    auto solver = make_linear_solver(name, s);
    solver->set_preconditioner(std::move(pc));
    solver->setup(op);
    x.assign(a.rows, T{});
    return solver->solve(std::span<const T>(b), std::span<T>(x));
  };
  SolveStats without, with;
  try {
    without = solve(nullptr);
    with = solve(pc_name.empty() ? std::make_shared<ExactPreconditioner>()
                                 : make_preconditioner(pc_name));
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    out.push_back(fmt::format("{}: it threw: {}", where, e.what()));
    return;
  }
  const double truth = relative_residual(*op, std::span<const T>(b), std::span<const T>(x));
  const std::int64_t most = std::max<std::int64_t>(3, without.iterations / 4);
  if (with.iterations > most)
    out.push_back(fmt::format(
        "{}: it ignores its preconditioner: with {} it took {} iterations, without one {}; a "
        "method that applies it needs at most {}",
        where, exact, with.iterations, without.iterations, most));
  else if (!with.converged || !(truth <= 10.0 * c.tolerance))
    out.push_back(fmt::format(
        "{}: with {} it did not reach the tolerance (status '{}', true relative residual {:.3g})",
        where, exact, with.status, truth));
}

// The preconditioner plugin a solver of `device` is run with: ILU(0) of that device (exact
// on the kit's tridiagonal system), or empty where none is installed.
std::string ilu0_of(const std::string& device) {
  for (const auto& p : installed(PluginKind::Preconditioner))
    if (p.rfind("ilu0", 0) == 0 && device_of(p, PluginKind::Preconditioner) == device) return p;
  return {};
}

}  // namespace

std::vector<std::string> linear_solver_problems(const std::string& name, const Settings& s,
                                                const LinearSolverChecks& c,
                                                std::vector<std::string>* notes) {
  Problems out;
  auto solver = make_linear_solver(name, s);
  if (c.real && !solver->accepts({c.kind, ScalarKind::Real}))
    out.push_back(fmt::format("does not accept {}, which it was expected to",
                              form_text(c.kind, ScalarKind::Real)));
  if (c.complex && !solver->accepts({c.kind, ScalarKind::Complex}))
    out.push_back(fmt::format("does not accept {}, which it was expected to",
                              form_text(c.kind, ScalarKind::Complex)));
  check_forms(*solver, c, false, true, out);

  if (solver->uses_preconditioner()) {
    // The kit's exact preconditioner works in host memory; a solver of another device is
    // given ILU(0) of its device on a system where that is exact, and so may a CPU solver be
    // (checks.preconditioner).
    const auto device = device_of(name, PluginKind::LinearSolver);
    const std::string pc_name = device == "cpu" ? c.preconditioner : ilu0_of(device);
    if (device != "cpu" && pc_name.empty()) {
      if (notes)
        notes->push_back(fmt::format(
            "not run with a preconditioner: it works in {} memory, the kit's exact "
            "preconditioner in host memory, and no ILU(0) of its device is installed",
            device));
    } else {
      for_each_form([&](OperatorForm f) { return solver->accepts(f); },
                    [&](OperatorKind kind, auto zero) {
                      // A preconditioner plugin is built from entries, which a matrix-free
                      // operator does not have.
                      if (!pc_name.empty() && kind == OperatorKind::MatrixFree) {
                        if (notes)
                          notes->push_back(fmt::format(
                              "matrix-free {} operators not run with '{}', which needs entries",
                              to_string(scalar_kind_of<decltype(zero)>), pc_name));
                        return;
                      }
                      check_preconditioned<decltype(zero)>(name, s, kind, c, pc_name, out);
                    });
    }
  }

  // A form that neither the solver nor a conversion provides must be refused with
  // UnsupportedOperator, not misread.
  for_each_form(
      [&](OperatorForm f) { return !reachable_form(solver->forms(), f); },
      [&](OperatorKind kind, auto zero) {
        const auto scalar = scalar_kind_of<decltype(zero)>;
        const Operator op = identity<decltype(zero)>(kind);
        try {
          solver->setup(std::make_shared<const Operator>(op));
          out.push_back(fmt::format("says it does not take {} operators, but setup accepted one",
                                    form_text(kind, scalar)));
        } catch (const UnsupportedOperator&) {
        } catch (const std::exception& e) {
          out.push_back(
              fmt::format("refused a {} operator, which it does not take, with '{}' instead of an "
                          "UnsupportedOperator error",
                          form_text(kind, scalar), e.what()));
        }
      });

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
  std::vector<std::string> notes;
  for (const auto& problem : linear_solver_problems(name, s, c, &notes))
    ADD_FAIL_CHECK_AT(where.file_name(), static_cast<int>(where.line()), name << ": " << problem);
  for (const auto& note : notes) MESSAGE(name << ": " << note);
}

}  // namespace solvent::testkit
