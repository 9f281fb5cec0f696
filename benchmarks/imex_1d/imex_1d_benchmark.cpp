// imex-1d-bench: one IMEX trapezoid step (dt = 0.01) of the angiogenesis-1d model at seed
// 000's twelve levels M = 25..800 (n = 4M unknowns) for every linear-solver path, side by
// side in one run: gepp-cpu (the paper's CPU baseline: dense GEPP on [S | b] every step),
// lapack (getrf + getrs every step), lapack+reuse (getrs only), banded (band substitution
// with factors made once by gbtrf, on the model's band ordering: the fast path) and
// banded-refactor (gbtrf + substitution every step); banded-unverified is banded without the
// core's residual check of every direct solve ([linear_solver] verify_residual = false);
// where the petsc plugin is built, PETSc's peers of De Luca et al.'s Table 6 (the AmgX and
// direct rows): petsc-gmres-boomeramg (GMRES(30) with hypre's BoomerAMG, set up once,
// stopping at ||b - A x|| / ||b|| <= 1e-12 so that its states agree with lapack's) and
// petsc-lu-mumps (MUMPS's sparse LU, factored once, a substitution per step). The state
// after the first step of every path is checked against lapack's before its times count.
// Each cell is the median over the steps timed; slow cells stop after --budget-s seconds of
// steps (at least one step), fast ones after --max-steps.
//
// The floor of each cell: dense refactoring paths, (2/3 n^3 + 2 n^2) flops at the DGEMM
// rate measured here; lapack+reuse, the 8 n^2 bytes of the LU factors at the read
// bandwidth measured here for that size; banded paths, the bytes one step must touch
// (band LU, CSR Lin, pivots, eight state-sized vectors) at the read bandwidth for that
// size. Rates are the best repetition of their measurement (a floor is a best case).
//
//   imex-1d-bench [--levels 25,50,...] [--budget-s 2] [--max-steps 200] [--csv FILE]
//                 [--only banded,lapack+reuse,...]
#include "machine_rates.hpp"
#include "step_timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>

using namespace imex_bench;

namespace {

struct Options {
  std::vector<std::int64_t> levels{25, 50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 800};
  double budget_s = 2.0;
  std::int64_t max_steps = 200;
  std::string csv;  // written only where --csv says: a run never leaves a file in its cwd
  std::vector<std::string> only;  // backend labels to time (lapack always runs: the reference)
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--levels") {
      o.levels.clear();
      std::stringstream ss(value);
      for (std::string item; std::getline(ss, item, ',');) o.levels.push_back(std::stoll(item));
    } else if (key == "--budget-s") {
      o.budget_s = std::stod(value);
    } else if (key == "--max-steps") {
      o.max_steps = std::stoll(value);
    } else if (key == "--csv") {
      o.csv = value;
    } else if (key == "--only") {
      std::stringstream ss(value);
      for (std::string item; std::getline(ss, item, ',');) o.only.push_back(item);
    } else {
      throw std::runtime_error(
          "unknown option " + key +
          " (options: --levels LIST, --budget-s S, --max-steps N, --csv FILE, --only LABELS)");
    }
  }
  return o;
}

enum class FloorBasis { Flops, Bytes, None };  // None: PETSc's paths, whose work is theirs

struct Cell {
  Backend backend;
  FloorBasis basis;
};

struct Row {
  const Cell* cell;
  std::string operator_form;
  std::size_t steps;
  double median, floor, diff;  // diff: relative to lapack after the first step
};

// Bytes one banded step touches: band LU (2 kl + ku + 1 = 7 rows: the model's ordering
// gives kl = ku = 2), CSR Lin (about 10 M entries of value + column, row pointers),
// pivots, and eight n-vectors (state, explicit term now and before, right-hand side, new
// state, the two permuted copies, the output).
double banded_step_bytes(double n) {
  const double m = n / 4, nnz = 10 * m - 6;
  return 8 * 7 * n + 12 * nnz + 4 * (n + 1) + 4 * n + 8 * 8 * n;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    s = std::max(s, std::abs(b[i]));
  }
  return d / s;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options opt = parse(argc, argv);
  // lapack first: its first step is the reference the others are checked against.
  const std::vector<Cell> cells = {
      {{"lapack", "lapack", {{"reuse_factorization", false}}}, FloorBasis::Flops},
      {{"gepp-cpu", "gepp-cpu", {{"reuse_factorization", false}}}, FloorBasis::Flops},
      {{"lapack+reuse", "lapack", {{"reuse_factorization", true}}}, FloorBasis::Bytes},
      {{"banded", "banded", {{"reuse_factorization", true}}}, FloorBasis::Bytes},
      {{"banded-unverified", "banded", {{"reuse_factorization", true}}, false}, FloorBasis::Bytes},
      {{"banded-refactor", "banded", {{"reuse_factorization", false}}}, FloorBasis::Bytes},
      {{"petsc-gmres-boomeramg",
        "petsc",
        {{"ksp_type", std::string("gmres")},
         {"pc_type", std::string("hypre")},
         {"tolerance", 1e-12},
         {"options", std::string("-pc_hypre_type boomeramg -ksp_pc_side right "
                                 "-ksp_norm_type unpreconditioned")}}},
       FloorBasis::None},
      {{"petsc-lu-mumps",
        "petsc",
        {{"ksp_type", std::string("preonly")},
         {"pc_type", std::string("lu")},
         {"factor_solver_type", std::string("mumps")}}},
       FloorBasis::None},
  };
  const auto solvers = solvent::plugins::installed(solvent::PluginKind::LinearSolver);
  // Other work on the machine inflates every figure; the table says how much there was.
  std::string load = "unknown";
  if (std::ifstream f("/proc/loadavg"); f) std::getline(f, load);
  fmt::print("load average at start (1, 5, 15 min, ...): {}\n", load);
  const double dgemm = dgemm_flops_per_second(1500);
  fmt::print(
      "machine: DGEMM (n = 1500, OpenBLAS) {:.1f} GFlop/s; read bandwidth 1 thread: "
      "{:.1f} GB/s at 256 KiB, {:.1f} GB/s at 256 MiB\n",
      dgemm / 1e9, read_bytes_per_second(256 << 10) / 1e9, read_bytes_per_second(256 << 20) / 1e9);
  fmt::print("{:>4} {:>5}  {:<21} {:>6} {:>13} {:>11} {:>12} {:>8} {:>10}\n", "M", "n", "backend",
             "steps", "median s/step", "x gepp-cpu", "floor s", "x floor", "vs lapack");

  // Without --csv the stream stays closed and its rows go nowhere.
  std::ofstream csv;
  if (!opt.csv.empty()) csv.open(opt.csv);
  csv << "M,n,backend,operator_form,steps_timed,median_s,speedup_vs_gepp_cpu,floor_s,floor_basis,"
         "median_over_floor,max_rel_diff_vs_lapack\n";
  bool all_agree = true;
  for (const auto m : opt.levels) {
    const double n = 4.0 * double(m);
    std::vector<double> reference;
    std::vector<Row> rows;
    for (const auto& cell : cells) {
      if (!reference.empty() && !opt.only.empty() &&
          std::find(opt.only.begin(), opt.only.end(), cell.backend.label) == opt.only.end())
        continue;
      if (std::find(solvers.begin(), solvers.end(), cell.backend.solver) == solvers.end()) {
        fmt::print("{:>4} {:>5}  {:<21} skipped: no plugin {} in this build\n", m, 4 * m,
                   cell.backend.label, cell.backend.solver);
        continue;
      }
      auto probe = time_steps(cell.backend, m, 1);
      if (reference.empty()) reference = probe.state_after_first_step;
      Row r{&cell, probe.operator_form,
            0,     0,
            0,     relative_difference(probe.state_after_first_step, reference)};
      const bool agrees = r.diff <= 1e-10;
      all_agree = all_agree && agrees;
      std::vector<double> samples = probe.seconds;
      auto spent = [&] { return std::accumulate(samples.begin(), samples.end(), 0.0); };
      while (agrees && std::int64_t(samples.size()) < opt.max_steps && spent() < opt.budget_s) {
        const auto more =
            std::clamp<std::int64_t>(std::int64_t((opt.budget_s - spent()) / median(samples)), 1,
                                     opt.max_steps - std::int64_t(samples.size()));
        const auto run = time_steps(cell.backend, m, more);
        samples.insert(samples.end(), run.seconds.begin(), run.seconds.end());
      }
      r.steps = samples.size();
      r.median = median(samples);
      if (cell.basis == FloorBasis::None) {
        r.floor = NAN;
      } else if (cell.basis == FloorBasis::Flops) {
        r.floor = (2.0 / 3.0 * n * n * n + 2 * n * n) / dgemm;
      } else {
        const double bytes = cell.backend.solver == "lapack" ? 8 * n * n : banded_step_bytes(n);
        r.floor = bytes / read_bytes_per_second(std::size_t(bytes));
      }
      rows.push_back(r);
    }
    const double gepp_median =
        rows.size() > 1 && rows[1].cell->backend.label == "gepp-cpu" ? rows[1].median : NAN;
    for (const auto& r : rows) {
      const double speedup = gepp_median / r.median;
      fmt::print("{:>4} {:>5}  {:<21} {:>6} {:>13.4g} {:>11.4g} {:>12.4g} {:>8.3g} {:>10.2g}{}\n",
                 m, 4 * m, r.cell->backend.label, r.steps, r.median, speedup, r.floor,
                 r.median / r.floor, r.diff, r.diff <= 1e-10 ? "" : "  DISAGREES");
      csv << fmt::format("{},{},{},{},{},{:.6e},{:.6g},{:.6e},{},{:.4g},{:.3e}\n", m, 4 * m,
                         r.cell->backend.label, r.operator_form, r.steps, r.median, speedup,
                         r.floor,
                         r.cell->basis == FloorBasis::Flops   ? "flops/dgemm"
                         : r.cell->basis == FloorBasis::Bytes ? "bytes/read-bandwidth"
                                                              : "none",
                         r.median / r.floor, r.diff);
    }
    std::fflush(stdout);
  }
  if (!opt.csv.empty()) fmt::print("table written to {}\n", opt.csv);
  if (!all_agree) {
    fmt::print("some back end disagrees with lapack by more than 1e-10 after one step\n");
    return 1;
  }
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "imex-1d-bench: {}\n", e.what());
  return 2;
}
