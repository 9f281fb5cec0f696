// dense-solver-bench: one solve and one IMEX step of the angiogenesis-1d system
// S = I - dt/2 Lin at De Luca et al.'s twelve levels M = 25..800 (n = 4M), for gepp-cpu, lapack,
// gepp-cuda (paper, best and blocked modes) and cusolver, side by side in one run. Every result is
// checked against LAPACK before it is timed; times are medians of wall-clock time around
// the plugin calls (the GPU plugins synchronise before returning).
//
//   dense-solver-bench [--out DIR] [--levels 25,50,...] [--configs LABEL,...] [--cpu-max-M M]
//                      [--cpu-budget-s S] [--ablation-M M] [--block-sizes 32,128,...]
//                      [--panel-threads 128,512,...]
// --configs keeps only the named configurations (e.g. "gepp-cpu"), --cpu-max-M leaves
// gepp-cpu out above that level (so its slow large levels can run as a separate process),
// --cpu-budget-s skips a gepp-cpu level whose predicted time (n^3 from the last) exceeds it,
// --block-sizes and --panel-threads add blocked mode at those block sizes and panel kernel
// widths beside the defaults (CSV and log only). Where both gepp-cuda blocked and cusolver
// ran, their cold solves are also timed in turns, one of each in each of 15 pairs, so that
// both see the same state of the host: the pairs' ratios are steadier than the ratio of
// medians taken seconds apart.
#include <solvent_test/implicit_system.hpp>
#include "device_ceilings.hpp"

#include <solvent/plugin_factory.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using solvent::plugins::Settings;

namespace {

constexpr double kDt = 0.01;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Config {
  std::string label;
  std::string plugin;
  Settings settings;
};

// The IMEX system of one level: S, the first step's right-hand side, the state.
struct ImexSystem {
  std::shared_ptr<solvent::Model> model;
  solvent::ImexProblem* problem = nullptr;
  solvent::CsrMatrix<double> lin;
  std::shared_ptr<const solvent::Operator> s;
  std::vector<double> u0, rhs, explicit_term;

  // rhs = u + dt/2 Lin u + dt N(u): the right-hand side of one trapezoidal IMEX step.
  void step_rhs(const std::vector<double>& u, std::vector<double>& out) {
    problem->explicit_term(0.0, u, explicit_term);
    for (std::size_t i = 0; i < lin.rows; ++i) {
      double acc = 0.0;
      for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k)
        acc += lin.values[k] * u[std::size_t(lin.col_idx[k])];
      out[i] = u[i] + 0.5 * kDt * acc + kDt * explicit_term[i];
    }
  }
};

ImexSystem make_system(std::int64_t m) {
  ImexSystem sys;
  sys.model = solvent::plugins::make_model("angiogenesis-1d", {{"M", m}});
  sys.problem = sys.model->imex();
  sys.lin = sys.problem->linear_operator();
  const std::size_t n = sys.lin.rows;
  sys.s = std::make_shared<const solvent::Operator>(solvent::test::implicit_matrix(sys.lin, kDt));
  sys.u0.resize(n);
  sys.rhs.resize(n);
  sys.explicit_term.resize(n);
  sys.problem->initial_state(sys.u0, 42);
  sys.step_rhs(sys.u0, sys.rhs);
  return sys;
}

template <class F>
double wall_ms(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  if (v.empty()) return kNaN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Repeats so that one measurement spends about 0.4 s, within [3, 15].
int repeats_for(double one_ms) { return std::clamp(int(400.0 / std::max(one_ms, 1e-3)), 3, 15); }

struct Measurement {
  double solve_ms = kNaN;  // setup (factor where the solver factors there) + one solve
  int solve_repeats = 0;
  double step_ms = kNaN;  // one IMEX step after setup: right-hand side, solve, projection
  int step_repeats = 0;
  double error = kNaN;  // relative 2-norm difference from LAPACK's solution
  std::string note;
  solvent::Facts facts;
  solvent::Facts setup_facts;  // right after a setup: its transfer and factorisation times
};

std::string fact(const solvent::Facts& facts, const std::string& key) {
  for (const auto& [k, v] : facts)
    if (k == key) return v;
  return "";
}

Measurement measure(const Config& c, ImexSystem& sys, const std::vector<double>& reference,
                    bool single_cold_sample) {
  Measurement m;
  std::shared_ptr<solvent::LinearSolver> solver;
  try {
    solver = solvent::plugins::make_linear_solver(c.plugin, c.settings);
  } catch (const std::exception& e) {
    m.note = e.what();
    return m;
  }
  const std::size_t n = sys.rhs.size();
  std::vector<double> x(n, kNaN);
  double first_ms = 0.0;
  try {
    first_ms = wall_ms([&] {
      solver->setup(sys.s);
      solver->solve(std::span<const double>(sys.rhs), std::span<double>(x));
    });
  } catch (const std::exception& e) {
    m.note = e.what();
    return m;
  }
  m.error = solvent::test::relative_difference(x, reference);
  if (!(m.error <= 1e-10)) {
    m.note = "WRONG: differs from LAPACK";
    return m;
  }
  std::vector<double> solve_times;
  if (single_cold_sample) {
    solve_times.push_back(first_ms);
  } else {
    const int r = repeats_for(first_ms);
    for (int i = 0; i < r; ++i) {
      solve_times.push_back(wall_ms([&] {
        solver->setup(sys.s);
        solver->solve(std::span<const double>(sys.rhs), std::span<double>(x));
      }));
    }
  }
  m.solve_ms = median(solve_times);
  m.solve_repeats = int(solve_times.size());
  // One more setup, for the phases of a cold solve (a solve overwrites them).
  solver->setup(sys.s);
  m.setup_facts = solver->facts();

  std::vector<double> rhs(n), u_new(n), step_times;
  auto step = [&] {
    sys.step_rhs(sys.u0, rhs);
    solver->solve(std::span<const double>(rhs), std::span<double>(u_new));
    sys.problem->project(u_new);
  };
  const double step_first = wall_ms(step);
  const int r = repeats_for(step_first);
  for (int i = 0; i < r; ++i) step_times.push_back(wall_ms(step));
  m.step_ms = median(step_times);
  m.step_repeats = r;
  m.facts = solver->facts();
  return m;
}

// Cold solves (setup + solve) of a and b in turns; the ratios a / b of the pairs, sorted.
std::vector<double> paired_ratios(const Config& a, const Config& b, ImexSystem& sys, int pairs) {
  auto sa = solvent::plugins::make_linear_solver(a.plugin, a.settings);
  auto sb = solvent::plugins::make_linear_solver(b.plugin, b.settings);
  std::vector<double> x(sys.rhs.size());
  auto cold = [&](solvent::LinearSolver& solver) {
    return wall_ms([&] {
      solver.setup(sys.s);
      solver.solve(std::span<const double>(sys.rhs), std::span<double>(x));
    });
  };
  cold(*sa);  // first calls pay the plugins' one-time costs
  cold(*sb);
  std::vector<double> ratios;
  for (int i = 0; i < pairs; ++i) {
    const double ta = cold(*sa);
    ratios.push_back(ta / cold(*sb));
  }
  std::sort(ratios.begin(), ratios.end());
  return ratios;
}

std::vector<std::int64_t> parse_levels(const std::string& s) {
  std::vector<std::int64_t> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(std::stoll(item));
  return out;
}

std::string ms(double v) { return std::isnan(v) ? "—" : fmt::format("{:.3g}", v); }
std::string ratio(double a, double b) {
  return (std::isnan(a) || std::isnan(b)) ? "—" : fmt::format("{:.3g}", a / b);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path out_dir = ".";
  std::vector<std::int64_t> levels{25, 50, 75, 100, 150, 200, 250, 300, 400, 500, 600, 800};
  double cpu_budget_s = 30.0;
  std::int64_t ablation_m = 400;
  std::int64_t cpu_max_m = 1 << 30;
  std::vector<std::string> only;
  std::vector<std::int64_t> block_sizes, panel_threads;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--out")
      out_dir = value;
    else if (key == "--levels")
      levels = parse_levels(value);
    else if (key == "--cpu-budget-s")
      cpu_budget_s = std::stod(value);
    else if (key == "--ablation-M")
      ablation_m = std::stoll(value);
    else if (key == "--cpu-max-M")
      cpu_max_m = std::stoll(value);
    else if (key == "--block-sizes")
      block_sizes = parse_levels(value);
    else if (key == "--panel-threads")
      panel_threads = parse_levels(value);
    else if (key == "--configs") {
      std::stringstream in(value);
      for (std::string item; std::getline(in, item, ',');) only.push_back(item);
    } else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  std::filesystem::create_directories(out_dir);

  // A run restricted to some configurations (the CPU's slow levels) leaves the GPU alone.
  const auto ceilings =
      only.empty() ? dense_bench::measure_device_ceilings() : dense_bench::DeviceCeilings{};
  std::printf(
      "device: %s\ncopy bandwidth %.0f GB/s, pageable host-to-device %.1f GB/s, DGEMM %.1f "
      "TFLOP/s\n",
      ceilings.device.empty() ? "none" : ceilings.device.c_str(), ceilings.copy_gb_per_s,
      ceilings.host_to_device_gb_per_s, ceilings.dgemm_tflop_per_s);

  const std::string s_paper = "paper", s_best = "best", s_blocked = "blocked";
  std::vector<Config> configs{
      {"gepp-cpu", "gepp-cpu", {{"reuse_factorization", true}}},
      {"lapack", "lapack", {{"reuse_factorization", true}}},
      {"gepp-cuda paper", "gepp-cuda", {{"mode", s_paper}}},
      {"gepp-cuda best", "gepp-cuda", {{"mode", s_best}}},
      {"gepp-cuda blocked", "gepp-cuda", {{"mode", s_blocked}}},
      // The matrix sent from pageable memory, as cusolver and the other modes send it.
      {"gepp-cuda blocked, pageable", "gepp-cuda", {{"mode", s_blocked}, {"pinned_upload", false}}},
      {"cusolver", "cusolver", {}},
      {"gepp-cuda best, refactor", "gepp-cuda", {{"mode", s_best}, {"reuse_factorization", false}}},
      {"gepp-cuda blocked, refactor",
       "gepp-cuda",
       {{"mode", s_blocked}, {"reuse_factorization", false}}},
      {"cusolver, refactor", "cusolver", {{"reuse_factorization", false}}},
  };
  for (const std::int64_t nb : block_sizes) {
    configs.push_back({fmt::format("gepp-cuda blocked nb={}", nb),
                       "gepp-cuda",
                       {{"mode", s_blocked}, {"block_size", nb}}});
  }
  for (const std::int64_t t : panel_threads) {
    configs.push_back({fmt::format("gepp-cuda blocked panel_threads={}", t),
                       "gepp-cuda",
                       {{"mode", s_blocked}, {"panel_threads", t}}});
  }
  // De Luca et al.'s pipeline with one improvement added at a time, ending in best mode.
  const std::vector<Config> ablation{
      {"paper", "gepp-cuda", {{"mode", s_paper}}},
      {"+ resident_matrix", "gepp-cuda", {{"mode", s_paper}, {"resident_matrix", true}}},
      {"+ back_substitution=device",
       "gepp-cuda",
       {{"mode", s_paper},
        {"resident_matrix", true},
        {"back_substitution", std::string("device")}}},
      {"+ kernels=fused",
       "gepp-cuda",
       {{"mode", s_paper},
        {"resident_matrix", true},
        {"back_substitution", std::string("device")},
        {"kernels", std::string("fused")}}},
      {"+ launch=stream",
       "gepp-cuda",
       {{"mode", s_paper},
        {"resident_matrix", true},
        {"back_substitution", std::string("device")},
        {"kernels", std::string("fused")},
        {"launch", std::string("stream")}}},
      {"+ launch=graph",
       "gepp-cuda",
       {{"mode", s_paper},
        {"resident_matrix", true},
        {"back_substitution", std::string("device")},
        {"kernels", std::string("fused")},
        {"launch", std::string("graph")}}},
      {"+ skip_zero_blocks", "gepp-cuda", {{"mode", s_best}, {"reuse_factorization", false}}},
      {"+ reuse_factorization (= best)", "gepp-cuda", {{"mode", s_best}}},
  };

  std::ofstream csv(out_dir / "dense_solvers.csv");
  csv << "M,n,config,solve_ms,solve_repeats,step_ms,step_repeats,rel_error_vs_lapack,"
         "upload_ms,factor_ms,substitute_ms,download_ms,multiply_adds,setup_upload_ms,"
         "setup_factor_ms,note\n";
  auto write_row = [&](std::int64_t m, std::size_t n, const std::string& label,
                       const Measurement& r) {
    csv << m << ',' << n << ",\"" << label << "\"," << r.solve_ms << ',' << r.solve_repeats << ','
        << r.step_ms << ',' << r.step_repeats << ',' << r.error << ','
        << fact(r.facts, "last_upload_ms") << ',' << fact(r.facts, "last_factor_ms") << ','
        << fact(r.facts, "last_substitute_ms") << ',' << fact(r.facts, "last_download_ms") << ','
        << fact(r.facts, "multiply_adds_per_factorization") << ','
        << fact(r.setup_facts, "last_upload_ms") << ',' << fact(r.setup_facts, "last_factor_ms")
        << ",\"" << r.note << "\"\n";
    csv.flush();
  };

  std::map<std::int64_t, std::map<std::string, Measurement>> results;
  std::map<std::int64_t, std::vector<double>> paired;  // blocked / cusolver, pair by pair
  double cpu_ms = 0.0;
  std::size_t cpu_n = 0;
  for (const std::int64_t m : levels) {
    auto sys = make_system(m);
    const std::size_t n = sys.rhs.size();
    std::vector<double> reference(n);
    {
      auto lapack = solvent::plugins::make_linear_solver("lapack");
      lapack->setup(sys.s);
      lapack->solve(std::span<const double>(sys.rhs), std::span<double>(reference));
    }
    for (const auto& c : configs) {
      if (!only.empty() && std::find(only.begin(), only.end(), c.label) == only.end()) continue;
      Measurement r;
      const bool cpu_gepp = c.plugin == "gepp-cpu";
      if (cpu_gepp && m > cpu_max_m) continue;
      const double predicted_s =
          cpu_n == 0 ? 0.0 : cpu_ms * std::pow(double(n) / double(cpu_n), 3.0) / 1000.0;
      if (cpu_gepp && predicted_s > cpu_budget_s) {
        r.note = fmt::format("skipped: predicted {:.0f} s over the {:.0f} s budget", predicted_s,
                             cpu_budget_s);
      } else {
        r = measure(c, sys, reference, cpu_gepp && predicted_s > 1.0);
        if (cpu_gepp && !std::isnan(r.solve_ms)) {
          cpu_ms = r.solve_ms;
          cpu_n = n;
        }
      }
      std::printf("M=%-4lld %-28s solve %10s ms  step %10s ms  err %.1e %s\n", (long long)m,
                  c.label.c_str(), ms(r.solve_ms).c_str(), ms(r.step_ms).c_str(), r.error,
                  r.note.c_str());
      std::fflush(stdout);
      write_row(m, n, c.label, r);
      results[m][c.label] = r;
    }
    auto ok = [&](const char* label) {
      const auto it = results[m].find(label);
      return it != results[m].end() && !std::isnan(it->second.solve_ms);
    };
    if (ok("gepp-cuda blocked") && ok("cusolver")) {
      auto find = [&](const std::string& label) {
        return *std::find_if(configs.begin(), configs.end(),
                             [&](const Config& c) { return c.label == label; });
      };
      paired[m] = paired_ratios(find("gepp-cuda blocked"), find("cusolver"), sys, 15);
      const auto& q = paired[m];
      std::printf(
          "M=%-4lld blocked / cusolver, 15 cold solves in turns: median %.3f (%.3f .. %.3f)\n",
          (long long)m, median(q), q.front(), q.back());
    }
    if (m == ablation_m && only.empty()) {
      for (const auto& c : ablation) {
        const auto r = measure(c, sys, reference, false);
        std::printf("M=%-4lld ablation %-32s solve %10s ms  step %10s ms\n", (long long)m,
                    c.label.c_str(), ms(r.solve_ms).c_str(), ms(r.step_ms).c_str());
        write_row(m, n, "ablation: " + c.label, r);
        results[-m][c.label] = r;
      }
    }
  }

  // The tables for docs/benchmarks.md.
  std::ostringstream md;
  md << "Device: " << ceilings.device << ". Measured ceilings: device copy "
     << fmt::format("{:.0f}", ceilings.copy_gb_per_s) << " GB/s (read + write), DGEMM "
     << fmt::format("{:.1f}", ceilings.dgemm_tflop_per_s) << " TFLOP/s, pageable host-to-device "
     << fmt::format("{:.1f}", ceilings.host_to_device_gb_per_s) << " GB/s.\n\n";
  md << "One solve (setup + solve: factor and substitute), median ms:\n\n"
     << "| M | n | gepp-cpu | lapack | gepp-cuda paper | gepp-cuda best | gepp-cuda blocked | "
        "gepp-cuda blocked, pageable | cusolver | paper speed-up over gepp-cpu | best speed-up "
        "over gepp-cpu | best / cusolver | blocked / cusolver | blocked pageable / cusolver | "
        "dense floor |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto m : levels) {
    auto& r = results[m];
    const double n = 4.0 * double(m);
    const double flops = 2.0 / 3.0 * n * n * n;
    const double floor_ms = std::max(flops / (ceilings.dgemm_tflop_per_s * 1e9),
                                     2.0 * 8.0 * n * n / (ceilings.copy_gb_per_s * 1e6));
    md << "| " << m << " | " << 4 * m << " | " << ms(r["gepp-cpu"].solve_ms) << " | "
       << ms(r["lapack"].solve_ms) << " | " << ms(r["gepp-cuda paper"].solve_ms) << " | "
       << ms(r["gepp-cuda best"].solve_ms) << " | " << ms(r["gepp-cuda blocked"].solve_ms) << " | "
       << ms(r["gepp-cuda blocked, pageable"].solve_ms) << " | " << ms(r["cusolver"].solve_ms)
       << " | " << ratio(r["gepp-cpu"].solve_ms, r["gepp-cuda paper"].solve_ms) << " | "
       << ratio(r["gepp-cpu"].solve_ms, r["gepp-cuda best"].solve_ms) << " | "
       << ratio(r["gepp-cuda best"].solve_ms, r["cusolver"].solve_ms) << " | "
       << ratio(r["gepp-cuda blocked"].solve_ms, r["cusolver"].solve_ms) << " | "
       << ratio(r["gepp-cuda blocked, pageable"].solve_ms, r["cusolver"].solve_ms) << " | "
       << fmt::format("{:.3g}", floor_ms) << " |\n";
  }
  if (!paired.empty()) {
    md << "\ngepp-cuda blocked / cusolver, cold solves timed in turns (15 pairs): median of the "
          "pairs' ratios, quartiles, range:\n\n| M | n | median | quartiles | range |\n"
          "|---|---|---|---|---|\n";
    for (const auto& [m, q] : paired)
      md << "| " << m << " | " << 4 * m << " | " << fmt::format("{:.3f}", median(q)) << " | "
         << fmt::format("{:.3f} .. {:.3f}", q[q.size() / 4], q[3 * q.size() / 4]) << " | "
         << fmt::format("{:.3f} .. {:.3f}", q.front(), q.back()) << " |\n";
  }
  md << "\nOne IMEX step after setup (right-hand side, solve, projection), median ms:\n\n"
     << "| M | gepp-cpu | lapack | gepp-cuda paper | gepp-cuda best | gepp-cuda blocked | "
        "cusolver | gepp-cuda best, refactor | gepp-cuda blocked, refactor | cusolver, refactor | "
        "best / cusolver | best refactor / cusolver refactor | blocked refactor / cusolver "
        "refactor |\n"
     << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto m : levels) {
    auto& r = results[m];
    md << "| " << m << " | " << ms(r["gepp-cpu"].step_ms) << " | " << ms(r["lapack"].step_ms)
       << " | " << ms(r["gepp-cuda paper"].step_ms) << " | " << ms(r["gepp-cuda best"].step_ms)
       << " | " << ms(r["gepp-cuda blocked"].step_ms) << " | " << ms(r["cusolver"].step_ms) << " | "
       << ms(r["gepp-cuda best, refactor"].step_ms) << " | "
       << ms(r["gepp-cuda blocked, refactor"].step_ms) << " | "
       << ms(r["cusolver, refactor"].step_ms) << " | "
       << ratio(r["gepp-cuda best"].step_ms, r["cusolver"].step_ms) << " | "
       << ratio(r["gepp-cuda best, refactor"].step_ms, r["cusolver, refactor"].step_ms) << " | "
       << ratio(r["gepp-cuda blocked, refactor"].step_ms, r["cusolver, refactor"].step_ms)
       << " |\n";
  }
  if (results.count(-ablation_m)) {
    md << "\nOne improvement at a time, M = " << ablation_m
       << ", median ms (phases of the last solve from CUDA events):\n\n"
       << "| configuration | one solve | one IMEX step | upload | factor | substitute | download "
          "|\n|---|---|---|---|---|---|---|\n";
    for (const auto& c : ablation) {
      auto& r = results[-ablation_m][c.label];
      md << "| " << c.label << " | " << ms(r.solve_ms) << " | " << ms(r.step_ms) << " | "
         << fact(r.facts, "last_upload_ms") << " | " << fact(r.facts, "last_factor_ms") << " | "
         << fact(r.facts, "last_substitute_ms") << " | " << fact(r.facts, "last_download_ms")
         << " |\n";
    }
  }
  std::ofstream(out_dir / "dense_solvers.md") << md.str();
  std::printf("\n%s", md.str().c_str());
  return 0;
}
