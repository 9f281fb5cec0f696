// Cheik Ahamed and Magoules, tables 10-12: iterations, CPU time, GPU time and speed-up of the
// Krylov plugins (loaded by name, Jacobi, tolerance 1e-9, zero initial guess, at most 1000
// iterations). The GPU solution's residual is recomputed on the host before its time is
// reported. A CPU solve that would take longer than the budget is cut after the number
// of iterations the budget allows; its per-iteration time then gives the speed-up, and
// the table says so.
#include "benchmark_support.hpp"

#include <solvent/plugin_factory.hpp>
#include <solvent_krylov/host_kernels.hpp>

#include <cmath>
#include <cstdio>

namespace solvent::krylov::bench {
namespace {

double host_residual(const CsrMatrix<complex>& a, const std::vector<complex>& b,
                     const std::vector<complex>& x) {
  std::vector<complex> r(b.size());
  host::apply<complex>(MatrixView<complex>(&a), x, r);
  host::axpby<complex>(complex(1), b, complex(-1), r);
  return host::norm2<complex>(r) / host::norm2<complex>(b);
}

struct Run {
  SolveStats stats;
  double seconds = 0;
};

Run solve(LinearSolver& s, const TestMatrix& m, std::vector<complex>& x) {
  Run r;
  std::fill(x.begin(), x.end(), complex(0));
  r.seconds = seconds_of(
      [&] { r.stats = s.solve(std::span<const complex>(m.rhs), std::span<complex>(x)); });
  return r;
}

}  // namespace

void solver_table(const Context& c, const std::vector<TestMatrix>& matrices,
                  const std::vector<std::string>& methods) {
  std::printf(
      "\n### Krylov solvers, Jacobi, tolerance 1e-9 (Cheik Ahamed and Magoules tables 10-12)\n\n");
  std::printf(
      "GPU time: mean of 2 solves (1 when a solve takes over 1 s) after one warm-up solve (solve() "
      "only; setup, which "
      "uploads the matrix, is listed apart). CPU: one solve; `cut at k` means the CPU solve "
      "was stopped after k iterations (budget %.0f s) and its time scaled to the GPU's "
      "iteration count.\n\n",
      c.cpu_budget_s);
  std::printf(
      "| method | matrix | n | #iter GPU | status GPU | rel. residual (host check) | GPU s | GPU "
      "ms/iter | "
      "GPU setup s | #iter CPU | CPU s | CPU ms/iter | speed-up |\n");
  std::printf(
      "| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
      "|\n");
  for (const std::string& method : methods)
    for (const TestMatrix& m : matrices) {
      const std::size_t n = m.csr().rows;
      std::vector<complex> x(n);
      Run gpu;
      double setup_s = 0, check = 0;
      if (c.gpu) {
        auto s = plugins::make_linear_solver(method + "-cuda");
        s->set_preconditioner(plugins::make_preconditioner("jacobi-cuda"));
        setup_s = seconds_of([&] { s->setup(m.op); });
        solve(*s, m, x);
        gpu = solve(*s, m, x);
        if (gpu.seconds < 1.0) gpu.seconds = 0.5 * (gpu.seconds + solve(*s, m, x).seconds);
        check = host_residual(m.csr(), m.rhs, x);
      }
      auto cpu_solver = [&](std::int64_t max_iterations) {
        auto s = plugins::make_linear_solver(method, {{"max_iterations", max_iterations}});
        s->set_preconditioner(plugins::make_preconditioner("jacobi"));
        return s;
      };
      // A short probe gives the CPU's time per iteration, to fit the budget.
      auto probe = cpu_solver(3);
      probe->setup(m.op);
      const Run p = solve(*probe, m, x);
      const double probe_per_iter =
          p.seconds / double(std::max<std::int64_t>(p.stats.iterations, 1));
      const std::int64_t wanted = c.gpu ? std::max<std::int64_t>(gpu.stats.iterations, 1) : 1000;
      const auto affordable = static_cast<std::int64_t>(c.cpu_budget_s / probe_per_iter);
      const std::int64_t k = std::max<std::int64_t>(3, std::min(wanted, affordable));
      auto cpu = cpu_solver(k);
      cpu->setup(m.op);
      const Run r = solve(*cpu, m, x);
      const double cpu_per_iter = r.seconds / double(std::max<std::int64_t>(r.stats.iterations, 1));
      const bool cut = k < wanted;
      if (c.gpu) {
        const double gpu_per_iter =
            gpu.seconds / double(std::max<std::int64_t>(gpu.stats.iterations, 1));
        std::printf(
            "| %s | %s | %zu | %lld | %s | %.2e (%.2e) | %.3f | %.3f | %.3f | %lld%s | %.2f%s | "
            "%.2f | %.1f |\n",
            method.c_str(), m.name.c_str(), n, static_cast<long long>(gpu.stats.iterations),
            gpu.stats.status.c_str(), gpu.stats.residual, check, gpu.seconds, 1e3 * gpu_per_iter,
            setup_s, static_cast<long long>(r.stats.iterations), cut ? " (cut)" : "",
            cut ? cpu_per_iter * double(wanted) : r.seconds, cut ? " (scaled)" : "",
            1e3 * cpu_per_iter, cpu_per_iter / gpu_per_iter);
      } else {
        std::printf("| %s | %s | %zu | - | - | %.2e | - | - | - | %lld | %.2f | %.2f | - |\n",
                    method.c_str(), m.name.c_str(), n, r.stats.residual,
                    static_cast<long long>(r.stats.iterations), r.seconds, 1e3 * cpu_per_iter);
      }
      std::fflush(stdout);
    }
}

}  // namespace solvent::krylov::bench
