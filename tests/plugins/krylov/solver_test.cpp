// The CPU Krylov plugins, loaded by name as `solvent run` loads them.
#include <solvent_test/solver_checks.hpp>
#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace solvent;
using namespace solvent::test;
using testkit::Settings;

namespace {

const char* const nonsymmetric_solvers[] = {"bicgstab", "bicgstab-l", "tfqmr"};

}  // namespace

TEST_CASE("conformance: bicgstab, bicgstab-l and tfqmr on CSR and Stencil7, real and complex") {
  for (const char* name : nonsymmetric_solvers) check_conformance(name);
}

TEST_CASE(
    "every method solves a complex symmetric Helmholtz system, with no, Jacobi and ILU(0) "
    "preconditioning") {
  const auto a = helmholtz_box(12, 12, 12, 4.0);
  const auto op = share(a);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> reference;
  for (const char* name : nonsymmetric_solvers)
    for (const char* pc : {"none", "jacobi", "ilu0"}) {
      CAPTURE(name);
      CAPTURE(pc);
      std::vector<complex> x(a.rows);
      const auto st = solve_with<complex>(name, {}, op, b, x, pc);
      CHECK(st.converged);
      CHECK(st.residual <= 1e-9);
      CHECK(st.iterations > 1);
      CHECK(st.residual_history.back() <= 1e-9);
      check_stats_honest(a, b, x, st);
      if (reference.empty())
        reference = x;
      else
        CHECK(max_relative_difference(x, reference) <= 1e-6);
    }
}

TEST_CASE("bicgstab-l: l = 1 behaves like bicgstab, larger l needs fewer cycles") {
  const auto a = helmholtz_box(12, 12, 12, 4.0);
  const auto op = share(a);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> x(a.rows);
  const auto plain = solve_with<complex>("bicgstab", {}, op, b, x);
  std::int64_t previous = 0;
  for (std::int64_t l : {1, 2, 4, 8}) {
    CAPTURE(l);
    std::fill(x.begin(), x.end(), complex(0));
    const auto st = solve_with<complex>("bicgstab-l", {{"l", l}}, op, b, x);
    CHECK(st.converged);
    if (l == 1)
      CHECK(std::abs(double(st.iterations - plain.iterations)) <= 0.2 * double(plain.iterations));
    if (previous) CHECK(st.iterations < previous);
    previous = st.iterations;
  }
}

TEST_CASE("bicgstab-l replaces its updated residual as it falls and reports how often") {
  // Every two decades of decrease the updated residual is replaced by r0 - B y (reliable
  // updates), so a solve from 1 to 1e-9 replaces it a few times; the facts count them.
  const auto a = helmholtz_box(12, 12, 12, 4.0);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> x(a.rows);
  auto solver = testkit::make_linear_solver("bicgstab-l", {});
  solver->set_preconditioner(testkit::make_preconditioner("jacobi"));
  solver->setup(share(a));
  const auto st = solver->solve(std::span<const complex>(b), std::span<complex>(x));
  CHECK(st.converged);
  CHECK(true_residual(a, b, x) <= 1e-9);
  std::int64_t replacements = -1;
  for (const auto& [key, value] : solver->facts())
    if (key == "last_residual_replacements") replacements = std::stoll(value);
  CHECK(replacements >= 2);
  CHECK(replacements <= st.iterations);
}

TEST_CASE("cg and bicgstab on a real Stencil7 (the MATM operator form) give the same solution") {
  const auto s = laplacian_stencil<double>(10, 9, 8, 0.0);
  const auto op = share(s);
  const auto b = random_vector<double>(s.size(), 3);
  std::vector<double> x_cg(s.size()), x_bicg(s.size());
  for (const char* pc : {"none", "jacobi"}) {
    const auto st = solve_with<double>("cg", {}, op, b, x_cg, pc);
    CHECK(st.converged);
    check_stats_honest(s, b, x_cg, st);
  }
  const auto st = solve_with<double>("bicgstab", {}, op, b, x_bicg);
  CHECK(st.converged);
  CHECK(max_relative_difference(x_cg, x_bicg) <= 1e-7);
}

TEST_CASE("cg stops with a named breakdown on an indefinite operator") {
  const auto s = laplacian_stencil<double>(6, 6, 6, -3.0);  // diagonal 3: indefinite
  std::vector<double> b = random_vector<double>(s.size(), 4), x(s.size());
  const auto st = solve_with<double>("cg", {}, share(s), b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status == "breakdown: p^H A p <= 0 (the operator is not positive definite)");
  check_stats_honest(s, b, x, st);
}

TEST_CASE("initial guess: 'given' starts from x, 'zero' ignores it") {
  const auto a = helmholtz_box(10, 10, 10, 3.0);
  const auto op = share(a);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> x(a.rows);
  const auto first = solve_with<complex>("bicgstab", {}, op, b, x);
  REQUIRE(first.converged);

  std::vector<complex> again = x;
  auto st =
      solve_with<complex>("bicgstab", {{"initial_guess", std::string("given")}}, op, b, again);
  CHECK(st.converged);
  CHECK(st.iterations == 0);

  std::vector<complex> garbage = random_vector<complex>(a.rows, 11);
  st = solve_with<complex>("bicgstab", {}, op, b, garbage);
  CHECK(st.iterations == first.iterations);
  CHECK(max_relative_difference(garbage, x) <= 1e-12);
}

TEST_CASE("a zero right-hand side gives x = 0 without iterating") {
  const auto a = helmholtz_box(4, 4, 4, 1.0);
  std::vector<complex> b(a.rows), x = random_vector<complex>(a.rows, 5);
  for (const char* name : {"bicgstab", "bicgstab-l", "tfqmr", "cg"}) {
    const auto st =
        solve_with<complex>(name, {{"initial_guess", std::string("given")}}, share(a), b, x);
    CHECK(st.converged);
    CHECK(st.iterations == 0);
    CHECK(std::all_of(x.begin(), x.end(), [](complex v) { return v == complex(0); }));
  }
}

TEST_CASE("max_iterations: unconverged, named, with the best iterate") {
  const auto a = helmholtz_box(12, 12, 12, 6.0);
  const auto b = helmholtz_rhs(a.rows);
  for (const char* name : nonsymmetric_solvers) {
    CAPTURE(name);
    std::vector<complex> x(a.rows);
    const auto st =
        solve_with<complex>(name, {{"max_iterations", std::int64_t(3)}}, share(a), b, x);
    CHECK_FALSE(st.converged);
    CHECK(st.status == "max_iterations");
    CHECK(st.iterations == 3);
    check_stats_honest(a, b, x, st, std::string(name) != "tfqmr");
  }
}

TEST_CASE("an unreachable tolerance stops unconverged with the best iterate, never an overflow") {
  // 1e-300 is below what rounding lets any residual reach: each method runs until its
  // recurrences break down (bicgstab-l's residual overflows) or stagnate, and hands back its
  // best iterate, whose residual is finite and small.
  const auto a = helmholtz_box(8, 8, 8, 6.0);
  const auto b = helmholtz_rhs(a.rows);
  for (const char* name : nonsymmetric_solvers) {
    CAPTURE(name);
    std::vector<complex> x(a.rows);
    const auto st = solve_with<complex>(
        name, {{"tolerance", 1e-300}, {"max_iterations", std::int64_t(5000)}}, share(a), b, x);
    CAPTURE(st.status);
    CHECK_FALSE(st.converged);
    CHECK(std::isfinite(st.residual));
    CHECK(st.residual < 1e-8);
    CHECK(std::all_of(x.begin(), x.end(),
                      [](const complex& v) { return std::isfinite(std::abs(v)); }));
  }
}

TEST_CASE("stagnation is detected and named, with the best iterate returned") {
  // BiCGSTAB's residual is erratic on an indefinite Helmholtz operator without
  // preconditioning: within a few iterations it fails to improve twice in a row.
  const auto a = helmholtz_box(12, 12, 12, 12.0);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> x(a.rows);
  const auto st =
      solve_with<complex>("bicgstab", {{"stagnation_window", std::int64_t(2)}}, share(a), b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status == "stagnation: no new smallest residual in 2 iterations");
  CHECK(st.iterations < 100);
  check_stats_honest(a, b, x, st);
}

namespace {

// 3 x 3 systems on which one step of a method meets an exact zero (found by search over
// small integer matrices; the zeros are exact in floating point).
solvent::CsrMatrix<double> small_matrix(const std::vector<std::vector<double>>& rows) {
  solvent::CsrMatrix<double> a;
  a.rows = a.cols = rows.size();
  a.row_ptr.push_back(0);
  for (const auto& r : rows) {
    for (std::size_t j = 0; j < r.size(); ++j)
      if (r[j] != 0.0) {
        a.col_idx.push_back(static_cast<std::int32_t>(j));
        a.values.push_back(r[j]);
      }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.values.size()));
  }
  return a;
}

void check_breakdown(const char* name, const Settings& extra, const solvent::CsrMatrix<double>& a,
                     const std::vector<double>& b, const std::string& status) {
  CAPTURE(name);
  std::vector<double> x(3);
  const auto st = solve_with<double>(name, extra, share(a), b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status == status);
  check_stats_honest(a, b, x, st, std::string(name) != "tfqmr");
}

}  // namespace

TEST_CASE("breakdowns are named and return the best iterate") {
  check_breakdown("bicgstab", {}, small_matrix({{0, 1, 1}, {-1, 0, 0}, {0, 0, 1}}), {1, 0, 1},
                  "breakdown: omega = 0");
  check_breakdown("bicgstab", {}, small_matrix({{-1, 1, -1}, {-1, -1, -1}, {-1, -1, -1}}),
                  {1, 0, 1}, "breakdown: rho = 0");
  check_breakdown("bicgstab", {}, small_matrix({{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}), {1, 0, 0},
                  "breakdown: sigma = <r0, B p> = 0");
  check_breakdown("tfqmr", {}, small_matrix({{-1, 0, -1}, {-1, -1, -1}, {-1, -1, -1}}), {0, 1, 0},
                  "breakdown: rho = 0");
  check_breakdown("bicgstab-l", {{"l", std::int64_t(2)}},
                  small_matrix({{0, 0, -1}, {0, -1, -1}, {-1, -1, -1}}), {0, 0, 1},
                  "breakdown: omega = 0");
}

TEST_CASE("misuse is refused with one clear message") {
  const auto a = helmholtz_box(3, 3, 3, 1.0);
  auto solver = testkit::make_linear_solver("bicgstab");
  std::vector<double> br(a.rows), xr(a.rows);
  CHECK_THROWS_WITH_AS(solver->solve(std::span<const double>(br), std::span<double>(xr)),
                       "solve() was called before setup()", SolverError);
  solver->setup(share(a));
  CHECK_THROWS_WITH_AS(solver->solve(std::span<const double>(br), std::span<double>(xr)),
                       "the operator is complex but the right-hand side is real", SolverError);
  std::vector<complex> bc(a.rows + 1), xc(a.rows);
  CHECK_THROWS_WITH_AS(solver->solve(std::span<const complex>(bc), std::span<complex>(xc)),
                       "vectors of length 28 (b) and 27 (x) for an operator of 27 rows",
                       SolverError);
  auto z = small_matrix({{0, 1, 0}, {1, 1, 0}, {0, 0, 1}});
  solver->set_preconditioner(testkit::make_preconditioner("jacobi"));
  CHECK_THROWS_WITH_AS(solver->setup(share(z)),
                       "jacobi: the diagonal of row 1 of the matrix is zero", SolverError);
}

namespace {

// Stopped one and two iterations after the residual first fails to fall twice in a row past
// a smallest one (at iteration m >= 1, not the start), a solve returns iterate m bit for bit:
// the iterate that a solve stopped at m returns as its last. By then the method has written
// over iterate m's vector (each writes its iterate into the other of two vectors).
template <class T, class M>
void check_returns_overwritten_best(const std::string& name, const Settings& settings, const M& a,
                                    const std::vector<T>& b) {
  CAPTURE(name);
  std::vector<T> x(b.size());
  const auto history = solve_with<T>(name, settings, share(a), b, x).residual_history;
  std::size_t m = 0, k = 1;
  for (; k + 1 < history.size(); ++k) {
    if (m > 0 && history[k] >= history[m] && history[k + 1] >= history[m]) break;
    if (history[k] < history[m]) m = k;
  }
  REQUIRE(k + 1 < history.size());  // the system makes the method pass over its best
  const auto stopped = [&](std::size_t iterations) {
    Settings limited = settings;
    limited["max_iterations"] = static_cast<std::int64_t>(iterations);
    std::vector<T> out(b.size());
    const auto st = solve_with<T>(name, limited, share(a), b, out);
    CHECK(st.status == "max_iterations");
    return out;
  };
  const std::vector<T> best = stopped(m);
  CHECK(stopped(k) == best);
  CHECK(stopped(k + 1) == best);
}

}  // namespace

TEST_CASE("each method returns its best iterate after writing over it") {
  // Unpreconditioned, on indefinite Helmholtz operators (the residuals of BiCGSTAB and
  // BiCGSTAB(2) rise and fall; TFQMR's quasi-residual falls until a convergence check fails
  // on the true residual and it restarts above its best) and, for CG, on the 1D Laplacian
  // with a random right-hand side (the 2-norm of CG's residual is not monotone).
  const auto milder = helmholtz_box(8, 8, 8, 8.0), harder = helmholtz_box(8, 8, 8, 16.0);
  const auto b = helmholtz_rhs(milder.rows);
  const Settings tight{{"tolerance", 1e-14}};
  check_returns_overwritten_best<complex>("bicgstab", tight, milder, b);
  check_returns_overwritten_best<complex>("tfqmr", tight, milder, b);
  check_returns_overwritten_best<complex>(
      "bicgstab-l", {{"tolerance", 1e-14}, {"l", std::int64_t(2)}}, harder, b);
  const auto line = laplacian_stencil<double>(50, 1, 1, -4.0);  // diagonal 2: SPD
  check_returns_overwritten_best<double>("cg", {}, line, random_vector<double>(50, 3));
}
