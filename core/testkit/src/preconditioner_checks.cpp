// Preconditioner conformance: a preconditioner is judged through a Krylov solver of its own
// device (its apply works in that device's memory), by what it does to the iteration count
// on a problem that needs one, and by whether refresh() really follows new values.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <random>

namespace solvent::testkit {

namespace {

// D A D with A the five-point Laplacian plus identity on a g x g grid (symmetric positive
// definite, diagonally dominant) and D spanning six orders of magnitude: a Krylov method
// struggles with it unpreconditioned, while a diagonal or incomplete-LU preconditioner turns
// it into a well-conditioned problem.
template <class T>
CsrMatrix<T> scaled_laplacian(std::size_t g, int scale_seed) {
  const std::size_t n = g * g;
  std::vector<double> d(n);
  for (std::size_t i = 0; i < n; ++i)
    d[i] = std::pow(10.0, double((i * 7 + std::size_t(scale_seed)) % 13) / 2.0 - 3.0);
  CsrMatrix<T> a;
  a.rows = a.cols = n;
  a.row_ptr.push_back(0);
  auto put = [&](std::size_t i, std::size_t j, double v) {
    a.col_idx.push_back(std::int32_t(j));
    a.values.push_back(T(d[i] * v * d[j]));
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t x = i % g, y = i / g;
    if (y > 0) put(i, i - g, -1.0);
    if (x > 0) put(i, i - 1, -1.0);
    put(i, i, 5.0);
    if (x + 1 < g) put(i, i + 1, -1.0);
    if (y + 1 < g) put(i, i + g, -1.0);
    a.row_ptr.push_back(std::int32_t(a.values.size()));
  }
  return a;
}

template <class T>
struct Outcome {
  SolveStats stats;
  double truth = 0;
  std::vector<T> x;
};

template <class T>
Outcome<T> solve_once(LinearSolver& solver, const std::shared_ptr<const Operator>& op,
                      const std::vector<T>& b) {
  Outcome<T> o;
  o.x.assign(b.size(), T{});
  solver.setup(op);
  o.stats = solver.solve(std::span<const T>(b), std::span<T>(o.x));
  o.truth = relative_residual(*op, std::span<const T>(b), std::span<const T>(o.x));
  return o;
}

template <class T>
void check_scalar(const std::string& name, const Settings& s, const std::string& solver_name,
                  std::vector<std::string>& out) {
  const std::string where = fmt::format("{} csr", to_string(scalar_kind_of<T>));
  const double tolerance = 1e-10;
  const Settings solver_settings{{"tolerance", tolerance}, {"max_iterations", std::int64_t{4000}}};
  auto a = std::make_shared<const Operator>(scaled_laplacian<T>(12, 0));
  std::vector<T> b(rows_of(*a));
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : b) v = T(u(rng));

  auto plain = make_linear_solver(solver_name, solver_settings);
  const auto without = solve_once(*plain, a, b);

  auto solver = make_linear_solver(solver_name, solver_settings);
  auto pc = make_preconditioner(name, s);
  solver->set_preconditioner(pc);
  Outcome<T> with;
  try {
    with = solve_once(*solver, a, b);
  } catch (const DeviceUnavailable&) {
    throw;
  } catch (const std::exception& e) {
    out.push_back(fmt::format("{}: set-up or solve with {} failed: {}", where, solver_name,
                              e.what()));
    return;
  }
  if (!with.stats.converged || !(with.truth <= 10 * tolerance))
    out.push_back(fmt::format(
        "{}: {} with it did not reach the tolerance {:.0e} (status '{}', true relative residual "
        "{:.3g})",
        where, solver_name, tolerance, with.stats.status, with.truth));
  if (with.stats.iterations >= without.stats.iterations)
    out.push_back(fmt::format(
        "{}: it does not help on a diagonally scaled Laplacian: {} iterations with it, {} "
        "without",
        where, with.stats.iterations, without.stats.iterations));

  // New values on the same pattern (another scaling): the core calls refresh(); a stale M
  // would be a preconditioner for the old matrix and cost iterations.
  auto changed = std::make_shared<const Operator>(scaled_laplacian<T>(12, 5));
  const auto refreshed = solve_once(*solver, changed, b);
  auto fresh_solver = make_linear_solver(solver_name, solver_settings);
  fresh_solver->set_preconditioner(make_preconditioner(name, s));
  const auto fresh = solve_once(*fresh_solver, changed, b);
  if (!refreshed.stats.converged || !(refreshed.truth <= 10 * tolerance) ||
      refreshed.stats.iterations > fresh.stats.iterations + 1)
    out.push_back(fmt::format(
        "{}: after refresh() with new values it behaves unlike a fresh set-up ({} iterations, "
        "status '{}', against {} from a fresh set-up): refresh() keeps stale values",
        where, refreshed.stats.iterations, refreshed.stats.status, fresh.stats.iterations));
}

}  // namespace

std::vector<std::string> preconditioner_problems(const std::string& name, const Settings& s) {
  std::vector<std::string> out;
  const std::string solver = device_of(name, PluginKind::Preconditioner) == "cuda"
                                 ? "bicgstab-cuda"
                                 : "bicgstab";
  auto pc = make_preconditioner(name, s);
  for (auto scalar : {ScalarKind::Real, ScalarKind::Complex}) {
    if (!reachable_form(pc->forms(), {OperatorKind::Csr, scalar})) continue;
    if (scalar == ScalarKind::Real)
      check_scalar<double>(name, s, solver, out);
    else
      check_scalar<complex>(name, s, solver, out);
  }
  if (!reachable_form(pc->forms(), {OperatorKind::Csr, ScalarKind::Real}) &&
      !reachable_form(pc->forms(), {OperatorKind::Csr, ScalarKind::Complex}))
    out.push_back("it can be built from no assembled operator (no csr, dense or banded form)");
  return out;
}

void check_preconditioner(const std::string& name, const Settings& s, std::source_location where) {
  for (const auto& problem : preconditioner_problems(name, s))
    ADD_FAIL_CHECK_AT(where.file_name(), static_cast<int>(where.line()), name << ": " << problem);
}

}  // namespace solvent::testkit
