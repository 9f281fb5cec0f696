// The distributed conformance check of a linear solver: the same system over the ranks and
// whole on each rank, the two solves compared.
#include <solvent/sparse/row_distribution.hpp>
#include <solvent/testkit.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace solvent::testkit {

namespace {

struct Solve {
  std::shared_ptr<const Operator> a;
  std::vector<double> b, x;
  SolveStats stats;
  std::shared_ptr<const GridBlock> block;
};

// Jacobi where the method takes a preconditioner (the Krylov solvers; MATM builds its own), on
// the solver's device: a CUDA solver's vectors are in device memory, which the CPU jacobi
// would read as host pointers.
void set_jacobi(LinearSolver& solver, const std::string& name, const Communicator& comm) {
  if (!solver.uses_preconditioner()) return;
  const bool cuda = device_of(name, PluginKind::LinearSolver) == "cuda";
  solver.set_preconditioner(make_preconditioner(cuda ? "jacobi-cuda" : "jacobi", {}, comm));
}

Solve solve(const std::string& name, const Settings& s, const Communicator& comm, long n) {
  const Settings model{{"n1", std::int64_t(n)}, {"n2", std::int64_t(n)}, {"n3", std::int64_t(n)}};
  Solve out;
  const auto m = make_model("grid-equations-3d", model, comm);
  out.a = m->linear()->matrix();
  out.block = std::get<Stencil7<double>>(*out.a).block;
  out.b = std::get<std::vector<double>>(m->linear()->rhs());
  out.x.assign(out.b.size(), 0.0);
  auto solver = make_linear_solver(name, s, comm);
  set_jacobi(*solver, name, comm);
  solver->setup(out.a);
  out.stats = solver->solve(std::span<const double>(out.b), std::span<double>(out.x));
  return out;
}

// The solver's tolerance as the settings give it, else the Krylov solvers' default.
double tolerance_of(const Settings& s) {
  const auto it = s.find("tolerance");
  return it == s.end() ? 1e-9 : std::get<double>(it->second);
}

// Every rank's problems, one line per rank that has any (every rank calls it together).
std::vector<std::string> gathered(const std::vector<std::string>& problems,
                                  const Communicator& comm) {
  const auto all = comm.gather_all(fmt::format("{}", fmt::join(problems, "\n")));
  std::vector<std::string> out;
  for (std::size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty()) out.push_back(fmt::format("rank {}: {}", r, all[r]));
  return out;
}

// The grid's Poisson system as one CSR matrix, and its right-hand side (every rank whole).
std::pair<CsrMatrix<double>, std::vector<double>> poisson_csr(long n) {
  const Settings model{{"n1", std::int64_t(n)}, {"n2", std::int64_t(n)}, {"n3", std::int64_t(n)}};
  const auto m = make_model("grid-equations-3d", model, single_rank());
  return {std::get<CsrMatrix<double>>(convert(*m->linear()->matrix(), OperatorKind::Csr, {}).op),
          std::get<std::vector<double>>(m->linear()->rhs())};
}

SolveStats solve_csr(const std::string& name, const Settings& s, const Communicator& comm,
                     CsrMatrix<double> a, std::span<const double> b, std::span<double> x) {
  auto solver = make_linear_solver(name, s, comm);
  set_jacobi(*solver, name, comm);
  solver->setup(std::make_shared<const Operator>(std::move(a)));
  return solver->solve(b, x);
}

}  // namespace

std::vector<std::string> distributed_csr_problems(const std::string& name, const Settings& s,
                                                  const Communicator& comm, long n) {
  std::vector<std::string> problems;
  auto problem = [&](std::string what) {
    problems.push_back(fmt::format("{} ranks: {}", comm.size(), std::move(what)));
  };
  const double tolerance = tolerance_of(s);
  auto [a, b] = poisson_csr(n);
  std::vector<double> whole(b.size());
  const SolveStats ws = solve_csr(name, s, single_rank(), a, b, whole);
  // Scotch's irregular split where the build has it; in order where it has not (the GPU
  // machines), which every rank learns together, so the kit still judges the solvers.
  RowPartition partition;
  try {
    partition = partition_rows(a.row_ptr, a.col_idx, comm);
  } catch (const Error&) {
    partition = contiguous_rows(a.row_ptr, a.col_idx, comm.size());
  }
  auto local = distribute(a, partition.owner, comm);
  const auto d = local.distribution;
  std::vector<double> mine_b, mine_x(d->rows());
  for (const auto i : d->owned) mine_b.push_back(b[static_cast<std::size_t>(i)]);
  const Operator op = local;
  const SolveStats ms = solve_csr(name, s, comm, std::move(local), mine_b, mine_x);
  const double residual =
      relative_residual(op, std::span<const double>(mine_b), std::span<const double>(mine_x));
  if (!ms.converged || !(residual <= 10 * tolerance))
    problem(fmt::format("the distributed solve ended '{}' at true residual {:.3e}", ms.status,
                        residual));
  // The split reorders the sums: one rank's iterations to rounding.
  const auto di = ms.iterations, wi = ws.iterations;
  if (std::abs(di - wi) > std::max<std::int64_t>(2, wi / 10))
    problem(fmt::format("{} iterations, on one rank {}", di, wi));
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < d->rows(); ++i) {
    const double w = whole[static_cast<std::size_t>(d->owned[i])];
    worst = std::max(worst, std::abs(mine_x[i] - w));
    scale = std::max(scale, std::abs(w));
  }
  if (worst > 100 * tolerance * scale)
    problem(fmt::format("the solution differs from the one-rank solve by {:.3e}", worst));
  return gathered(problems, comm);
}

std::vector<std::string> distributed_linear_solver_problems(const std::string& name,
                                                            const Settings& s,
                                                            const Communicator& comm, bool bitwise,
                                                            long n) {
  std::vector<std::string> problems;
  auto problem = [&](std::string what) {
    problems.push_back(fmt::format("{} ranks: {}", comm.size(), std::move(what)));
  };
  const double tolerance = tolerance_of(s);
  const Solve whole = solve(name, s, single_rank(), n);
  const Solve mine = solve(name, s, comm, n);
  if (comm.size() > 1 && !mine.block) problem("the model did not split the grid over the ranks");
  // The true residual, over the ranks: the core's own, not the solver's word.
  const double residual =
      relative_residual(*mine.a, std::span<const double>(mine.b), std::span<const double>(mine.x));
  if (!mine.stats.converged || !(residual <= 10 * tolerance))
    problem(fmt::format("the distributed solve ended '{}' at true residual {:.3e}",
                        mine.stats.status, residual));
  const auto di = mine.stats.iterations, wi = whole.stats.iterations;
  if (bitwise ? di != wi : std::abs(di - wi) > 2)
    problem(fmt::format("{} iterations, on one rank {}", di, wi));
  if (bitwise && mine.stats.residual_history != whole.stats.residual_history)
    problem("the residual history differs from the one-rank solve");
  // This rank's block of the solution against the same nodes of the whole solve.
  const auto o = mine.block ? mine.block->offset() : GridBlocks::Index3{0, 0, 0};
  const auto e = mine.block ? mine.block->extent() : GridBlocks::Index3{int(n), int(n), int(n)};
  double worst = 0, scale = 0;
  std::size_t differ = 0;
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i) {
        const double u = mine.x[std::size_t(i) + std::size_t(e[0]) * (j + std::size_t(e[1]) * k)];
        const double w = whole.x[std::size_t(o[0] + i) +
                                 std::size_t(n) * (o[1] + j + std::size_t(n) * (o[2] + k))];
        differ += u != w;
        worst = std::max(worst, std::abs(u - w));
        scale = std::max(scale, std::abs(w));
      }
  if (bitwise && differ > 0)
    problem(fmt::format("{} solution values differ from the one-rank solve (by up to {:.3e})",
                        differ, worst));
  if (!bitwise && worst > 100 * tolerance * scale)
    problem(fmt::format("the solution differs from the one-rank solve by {:.3e}", worst));
  // Every rank reports: a problem on any rank is a problem of the solver.
  return gathered(problems, comm);
}

}  // namespace solvent::testkit
