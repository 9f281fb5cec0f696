// ensemble-bench: B members of the angiogenesis-1d model on M points, each with its own
// parameters (every diffusion and rate drawn in [0.6, 1.4] times the julia set's, from
// --seed), advanced `steps` IMEX trapezoid steps of dt = 0.01, three ways:
//   single     every member its own run, imex-trapezoid with banded (the core's residual
//              check off, as imex-1d-bench's banded-unverified), members spread over
//              --threads threads (default: every core);
//   cpu-batch  one imex-batched run of all members (OpenMP over members);
//   gpu-batch  one imex-batched-cuda run of all members on one GPU (where CUDA is built).
// The batched runs report each member once at the end (report_every = steps). Each wall time
// counts everything from parameters to a written file of every member's final observables:
// making the models, the band factors, transfers, the steps, the file. Before timing, the
// final states of --check members (spread over the ensemble) from each batched path are
// compared with their single runs: more than 1e-12 relative is a failure (exit 1).
//
// The floor of the GPU batch: the bytes one step must move for every member — the band
// factors (ldab n doubles, n inverse diagonal doubles, n pivots and n reaches as ints), Lin's
// values (nnz doubles), T and T_x / (1 + a4 T) (2 m doubles), the state read and written
// (2 n doubles) — over the device's measured copy bandwidth, times the steps.
//
//   ensemble-bench [--members 10000] [--steps 100] [--M 400] [--threads N] [--check 4]
//                  [--paths single,cpu-batch,gpu-batch] [--seed 1] [--out DIR]
#include <solvent/ensemble.hpp>
#include <solvent/plugin_factory.hpp>
#include <solvent/solvent.hpp>
#include <solvent_test/ensemble_members.hpp>
#ifdef ENSEMBLE_BENCH_CUDA
#include <solvent_test/device_timing.hpp>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

namespace {

namespace tk = solvent::plugins;
using Clock = std::chrono::steady_clock;

struct Options {
  std::int64_t members = 10000, steps = 100, m = 400, check = 4;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> paths{"single", "cpu-batch", "gpu-batch"};
  std::uint64_t seed = 1;
  std::filesystem::path out = "ensemble-bench-out";
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw std::runtime_error(key + " needs a value");
    const std::string value = argv[i + 1];
    auto positive = [&](std::int64_t v) {
      if (v < 1) throw std::runtime_error(key + " must be at least 1");
      return v;
    };
    if (key == "--members") {
      o.members = positive(std::stoll(value));
    } else if (key == "--steps") {
      o.steps = positive(std::stoll(value));
    } else if (key == "--M") {
      o.m = positive(std::stoll(value));
    } else if (key == "--threads") {
      o.threads = unsigned(positive(std::stoll(value)));
    } else if (key == "--check") {
      o.check = std::stoll(value);
    } else if (key == "--paths") {
      o.paths.clear();
      std::stringstream ss(value);
      for (std::string item; std::getline(ss, item, ',');) {
        if (item != "single" && item != "cpu-batch" && item != "gpu-batch")
          throw std::runtime_error("unknown path " + item + " (single, cpu-batch, gpu-batch)");
        o.paths.push_back(item);
      }
    } else if (key == "--seed") {
      o.seed = std::stoull(value);
    } else if (key == "--out") {
      o.out = value;
    } else {
      throw std::runtime_error("unknown option " + key +
                               " (options: --members, --steps, --M, --threads, --check, --paths, "
                               "--seed, --out)");
    }
  }
  return o;
}

struct MemberEnd {
  std::vector<solvent::Observable> observables;
  std::vector<double> state;  // only where asked for
  std::string failure;
};

struct PathRun {
  std::vector<MemberEnd> ends;
  std::string device;
  std::map<std::string, double> phases;  // seconds by phase (the batched runs)
};

solvent::RunContext context_for(solvent::test::LastReport& observer, solvent::PhaseTimer& timer) {
  solvent::RunContext ctx;
  ctx.observer = &observer;
  ctx.timer = &timer;
  ctx.seed = 42;
  return ctx;
}

// Every member its own run, `threads` members at a time.
PathRun run_single(const std::vector<tk::Settings>& members, std::int64_t steps, unsigned threads,
                   bool keep_state) {
  PathRun run;
  run.device = fmt::format("cpu, {} threads", threads);
  run.ends.resize(members.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t b = next++; b < members.size(); b = next++) {
      auto model = tk::make_model("angiogenesis-1d", members[b]);
      auto integrator = tk::make_integrator("imex-trapezoid", {{"dt", 0.01}, {"steps", steps}});
      auto solver = tk::make_linear_solver("banded");
      solvent::SolverPolicy policy;
      policy.verify_residual = false;
      solver->set_policy(policy);
      solvent::test::LastReport observer(keep_state);
      solvent::PhaseTimer timer;
      auto ctx = context_for(observer, timer);
      try {
        integrator->run(*model, solver.get(), ctx);
      } catch (const solvent::DivergenceError& e) {
        run.ends[b].failure = e.what();
      }
      run.ends[b].observables = std::move(observer.observables);
      run.ends[b].state = std::move(observer.state);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  return run;
}

// All members as one batch of `integrator`, reported at the end only; the models made over
// `threads` threads (as the single runs make theirs: each member's settings are resolved and
// checked on its own, which on one thread was 0.4 s of 10^4 members).
PathRun run_batch(const std::string& integrator_name, const std::vector<tk::Settings>& members,
                  std::int64_t steps, unsigned threads, bool keep_state) {
  const std::size_t count = members.size();
  std::vector<std::shared_ptr<solvent::Model>> models(count);
  std::vector<std::unique_ptr<solvent::test::LastReport>> observers;
  std::vector<solvent::PhaseTimer> timers(count);
  std::vector<solvent::RunContext> contexts;
  const auto start = Clock::now();
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto worker = [&] {
    try {
      for (std::size_t b = next++; b < count; b = next++)
        models[b] = tk::make_model("angiogenesis-1d", members[b]);
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      failure = std::current_exception();
      next = count;
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  for (std::size_t b = 0; b < count; ++b) {
    observers.push_back(std::make_unique<solvent::test::LastReport>(keep_state));
    contexts.push_back(context_for(*observers.back(), timers[b]));
  }
  auto& ensemble = *solvent::family<solvent::EnsembleFamily>(*models[0]);
  for (std::size_t b = 1; b < count; ++b)
    ensemble.others.push_back({models[b].get(), &contexts[b], {}, {}});
  const auto integrator_start = Clock::now();
  auto integrator = tk::make_integrator(integrator_name,
                                        {{"dt", 0.01}, {"steps", steps}, {"report_every", steps}});
  PathRun run;
  run.ends.resize(count);
  try {
    integrator->run(*models[0], nullptr, contexts[0]);
  } catch (const solvent::DivergenceError& e) {
    run.ends[0].failure = e.what();
  }
  for (std::size_t b = 0; b < count; ++b) {
    if (b > 0) run.ends[b].failure = ensemble.others[b - 1].failure;
    run.ends[b].observables = std::move(observers[b]->observables);
    run.ends[b].state = std::move(observers[b]->state);
  }
  for (const auto& [k, v] : integrator->facts())
    if (k == "device") run.device = v;
  run.phases = timers[0].seconds();
  run.phases["models"] = std::chrono::duration<double>(integrator_start - start).count();
  return run;
}

PathRun run_path(const std::string& path, const std::vector<tk::Settings>& members,
                 const Options& o, bool keep_state) {
  if (path == "single") return run_single(members, o.steps, o.threads, keep_state);
  return run_batch(path == "cpu-batch" ? "imex-batched" : "imex-batched-cuda", members, o.steps,
                   o.threads, keep_state);
}

void write_observables(const std::filesystem::path& file, const PathRun& run) {
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "member,failure";
  const auto* named = &run.ends.front().observables;
  for (const auto& end : run.ends)
    if (!end.observables.empty()) named = &end.observables;
  for (const auto& o : *named) out << ',' << o.name;
  out << '\n';
  for (std::size_t b = 0; b < run.ends.size(); ++b) {
    const auto& end = run.ends[b];
    out << b << ',' << (end.failure.empty() ? "" : "\"failed\"");
    for (const auto& o : end.observables) out << fmt::format(",{:.17g}", o.value);
    out << '\n';
  }
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || b.empty()) return INFINITY;
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    s = std::max(s, std::abs(b[i]));
  }
  return d / s;
}

#ifdef ENSEMBLE_BENCH_CUDA
// Bytes one step moves per member at least (the header's floor; only the GPU batch has one).
double step_bytes_per_member(double m) {
  const double n = 4 * m, ldab = 7, nnz = 10 * m - 6;
  return 8 * (ldab * n + n + nnz + 2 * m + 2 * n) + 4 * (2 * n);
}
#endif

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  const auto members = solvent::test::random_members(std::size_t(o.members), o.m, o.seed);
  std::filesystem::create_directories(o.out);
  std::vector<std::string> paths;
  for (const auto& p : o.paths) {
#ifndef ENSEMBLE_BENCH_CUDA
    if (p == "gpu-batch") {
      fmt::print("gpu-batch: skipped (built without CUDA)\n");
      continue;
    }
#endif
    paths.push_back(p);
  }
  // The GPU's copy bandwidth, for the floor (and whether there is a GPU at all).
  double floor_s = NAN;
#ifdef ENSEMBLE_BENCH_CUDA
  if (auto gpu = std::find(paths.begin(), paths.end(), "gpu-batch"); gpu != paths.end()) {
    try {
      const double gbs = solvent::test::copy_bandwidth_gbs(std::size_t(1) << 30);
      const double bytes = step_bytes_per_member(double(o.m)) * double(o.members) * double(o.steps);
      floor_s = bytes / (gbs * 1e9);
      fmt::print(
          "device: {}\nfloor of the GPU batch: {:.3g} GB moved over {:.0f} GB/s (copy) = {:.4g} "
          "s\n",
          solvent::test::device_description(), bytes / 1e9, gbs, floor_s);
    } catch (const solvent::DeviceUnavailable& e) {
      fmt::print("gpu-batch: skipped ({})\n", e.what());
      paths.erase(gpu);
    }
  }
#endif

  // Before timing: a few members' final states on every batched path against their single runs.
  std::vector<tk::Settings> probes;
  const auto check = std::min<std::int64_t>(o.check, o.members);
  for (std::int64_t i = 0; i < check; ++i)
    probes.push_back(members[std::size_t(check > 1 ? i * (o.members - 1) / (check - 1) : 0)]);
  bool agree = true;
  if (!probes.empty()) {
    const auto reference = run_single(probes, o.steps, 1, true);
    for (const auto& p : paths) {
      if (p == "single") continue;
      const auto batch = run_path(p, probes, o, true);
      double worst = 0.0;
      for (std::size_t i = 0; i < probes.size(); ++i)
        worst = std::max(worst, relative_difference(batch.ends[i].state, reference.ends[i].state));
      fmt::print(
          "check {}: {} members against their single runs, largest relative difference {:.3g}{}\n",
          p, probes.size(), worst, worst <= 1e-12 ? "" : "  DISAGREES");
      agree = agree && worst <= 1e-12;
    }
  }
  if (!agree) {
    fmt::print("a batched path disagrees with the single runs; nothing timed\n");
    return 1;
  }

  std::string load = "unknown";
  if (std::ifstream f("/proc/loadavg"); f) std::getline(f, load);
  fmt::print("{} members, M = {}, {} steps of dt = 0.01; load average at start: {}\n", o.members,
             o.m, o.steps, load);
  fmt::print("{:<10} {:>10} {:>14} {:>12} {:>10} {:>9}  {}\n", "path", "wall s", "members/s",
             "x single", "x floor", "failed", "device; phases of the batched run (s)");
  std::ofstream csv(o.out / "ensemble.csv");
  csv << "path,device,members,M,steps,wall_s,members_per_s,speedup_vs_single,floor_s,failed\n";
  double single_wall = NAN;
  for (const auto& p : paths) {
    const auto start = Clock::now();
    const auto run = run_path(p, members, o, false);
    write_observables(o.out / fmt::format("final_observables_{}.csv", p), run);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    if (p == "single") single_wall = wall;
    const auto failed = std::count_if(run.ends.begin(), run.ends.end(),
                                      [](const MemberEnd& e) { return !e.failure.empty(); });
    std::string phases;
    for (const auto& [k, v] : run.phases) phases += fmt::format(" {} {:.3g}", k, v);
    const double x_floor = p == "gpu-batch" ? wall / floor_s : NAN;
    fmt::print("{:<10} {:>10.4g} {:>14.4g} {:>12.3g} {:>10.3g} {:>9}  {};{}\n", p, wall,
               double(o.members) / wall, single_wall / wall, x_floor, failed, run.device, phases);
    csv << fmt::format("{},\"{}\",{},{},{},{:.6g},{:.6g},{:.4g},{:.4g},{}\n", p, run.device,
                       o.members, o.m, o.steps, wall, double(o.members) / wall, single_wall / wall,
                       p == "gpu-batch" ? floor_s : NAN, failed);
    std::fflush(stdout);
  }
  fmt::print("tables in {}\n", o.out.string());
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "ensemble-bench: {}\n", e.what());
  return 2;
}
