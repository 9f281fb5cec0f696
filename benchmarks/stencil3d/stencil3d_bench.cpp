// Darbyshire's table 3 re-done: time per step of explicit-stencil3d on CUDA for the grids
// 100^3, 200^3, 300^3, 400 x 400 x 140 and the block shapes (4,4,4), (16,16,4), (16,4,4),
// (16,8,4), (64,4,4), and the tiled (2.5D) kernel; speed-up over the CPU engine (all cores, and one
// core as the paper's serial C++); effective bandwidth of the field update against a measured
// device-to-device copy; the tip phase's share of the step.
//
// Before timing, the CUDA state after the CPU's timed steps is compared byte for byte
// with the CPU's. Timings: CUDA events per phase, medians of chunks of steps after
// warm-up; CPU: steady_clock, median of single steps.
//
//   stencil3d-bench [--steps 1000] [--cpu-steps 3] [--out bench.csv]
#include <solvent_stencil3d/simulation_state.hpp>
#include <solvent_stencil3d/stencil_engine.hpp>
#include <solvent_test/device_timing.hpp>

#include <solvent/testkit.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using solvent::stencil3d::SimulationState;

struct Options {
  std::int64_t steps = 1000;
  std::int64_t cpu_steps = 3;
  std::string out = "stencil3d_bench.csv";
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

solvent::angiogenesis_3d::Parameters parameters(std::int64_t nx, std::int64_t ny, std::int64_t nz) {
  static std::vector<std::shared_ptr<solvent::Model>> keep;  // the block lives in the model
  keep.push_back(
      solvent::testkit::make_model("angiogenesis-3d", {{"nx", nx}, {"ny", ny}, {"nz", nz}}));
  return *static_cast<const solvent::angiogenesis_3d::Parameters*>(
      keep.back()->extension(solvent::angiogenesis_3d::extension_name));
}

// Per-step seconds of each phase: medians over chunks of `chunk` steps.
struct StepTimes {
  double field, tips;
};

StepTimes time_engine(solvent::stencil3d::StencilEngine& e, const SimulationState& s,
                      std::int64_t steps, std::int64_t chunk, std::int64_t warmup) {
  e.load(s);
  if (warmup > 0) e.timed_steps(warmup);
  std::vector<double> field, tips;
  for (std::int64_t done = 0; done < steps; done += chunk) {
    const auto t = e.timed_steps(std::min(chunk, steps - done));
    field.push_back(t.field / static_cast<double>(std::min(chunk, steps - done)));
    tips.push_back(t.tips / static_cast<double>(std::min(chunk, steps - done)));
  }
  return {median(field), median(tips)};
}

bool same_state(const SimulationState& a, const SimulationState& b) {
  auto eq = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  return eq(a.n, b.n) && eq(a.f, b.f) && eq(a.c, b.c) && eq(a.owner, b.owner) &&
         eq(a.node, b.node) && eq(a.active, b.active) && eq(a.birth, b.birth) &&
         eq(a.segments, b.segments) && eq(a.vessel, b.vessel) &&
         std::memcmp(&a.counters, &b.counters, sizeof a.counters) == 0;
}

}  // namespace

int run_benchmark(int argc, char** argv) {
  Options opt;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a];
    if (key == "--steps")
      opt.steps = std::stoll(argv[a + 1]);
    else if (key == "--cpu-steps")
      opt.cpu_steps = std::stoll(argv[a + 1]);
    else if (key == "--out")
      opt.out = argv[a + 1];
    else {
      std::fprintf(stderr, "unknown option %s\n", key.c_str());
      return 2;
    }
  }
  const double dt = 0.001;
  const std::uint64_t seed = 42;
  const std::vector<std::array<std::int64_t, 3>> grids = {
      {100, 100, 100}, {200, 200, 200}, {300, 300, 300}, {400, 400, 140}};
  const std::vector<solvent::stencil3d::BlockShape> blocks = {
      {4, 4, 4}, {16, 16, 4}, {16, 4, 4}, {16, 8, 4}, {64, 4, 4}};

  auto probe = solvent::stencil3d::make_cuda_engine({16, 4, 4});
  const double copy_bw = 1e9 * solvent::test::copy_bandwidth_gbs(std::size_t(2e9));
  const unsigned cores = std::thread::hardware_concurrency();
  std::printf("device: %s; CPU: %u threads\n", probe->device_name().c_str(), cores);
  std::printf("measured device-to-device copy: %.0f GB/s (read + write, 2 GB, median of 10)\n\n",
              copy_bw / 1e9);

  std::ofstream csv(opt.out);
  csv << "grid,block,gpu_field_ms,gpu_tips_ms,gpu_step_ms,cpu_all_ms,cpu_one_ms,"
         "speedup_all,speedup_one,field_GBps,field_frac_copy,tip_frac\n";
  std::printf(
      "| grid | block | GPU step (ms) | field (ms) | tips (ms) | tips share | "
      "field GB/s | of copy BW | vs CPU %u thr | vs 1 thr |\n",
      cores);
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& g : grids) {
    const auto p = parameters(g[0], g[1], g[2]);
    const auto init = solvent::stencil3d::initial_state(p, dt, seed, 1 << 22);
    const double nodes = static_cast<double>(g[0] * g[1] * g[2]);
    const std::string grid =
        std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);

    // CPU reference and timings: all cores, then one core (fewer steps).
    auto cpu = solvent::stencil3d::make_cpu_engine(0);
    const auto cpu_all = time_engine(*cpu, init, opt.cpu_steps, 1, 0);
    SimulationState cpu_state;
    cpu->store(cpu_state);
    auto serial = solvent::stencil3d::make_cpu_engine(1);
    const auto cpu_one =
        time_engine(*serial, init, std::max<std::int64_t>(1, opt.cpu_steps / 2), 1, 0);

    // Each kernel must reproduce the CPU's state bit for bit before it is timed.
    auto matches_cpu = [&](solvent::stencil3d::FieldKernel kernel) {
      auto cuda = solvent::stencil3d::make_cuda_engine({16, 4, 4}, kernel);
      cuda->load(init);
      for (std::int64_t q = 0; q < opt.cpu_steps; ++q) cuda->step();
      SimulationState cuda_state;
      cuda->store(cuda_state);
      const bool same = same_state(cpu_state, cuda_state);
      if (!same)
        std::printf(
            "%s: the %s kernel's state after %lld steps differs from the CPU's; not timed\n",
            grid.c_str(), kernel == solvent::stencil3d::FieldKernel::Tiled ? "tiled" : "direct",
            static_cast<long long>(opt.cpu_steps));
      return same;
    };
    struct Variant {
      std::string name;
      solvent::stencil3d::BlockShape block;
      solvent::stencil3d::FieldKernel kernel;
    };
    std::vector<Variant> variants;
    if (matches_cpu(solvent::stencil3d::FieldKernel::Direct))
      for (const auto& b : blocks)
        variants.push_back(
            {std::to_string(b[0]) + "x" + std::to_string(b[1]) + "x" + std::to_string(b[2]), b,
             solvent::stencil3d::FieldKernel::Direct});
    if (matches_cpu(solvent::stencil3d::FieldKernel::Tiled))
      variants.push_back({"tiled 32x8, z 32", {32, 8, 1}, solvent::stencil3d::FieldKernel::Tiled});
    const double cpu_all_step = cpu_all.field + cpu_all.tips;
    const double cpu_one_step = cpu_one.field + cpu_one.tips;
    for (const auto& variant : variants) {
      auto e = solvent::stencil3d::make_cuda_engine(variant.block, variant.kernel);
      const auto t = time_engine(*e, init, opt.steps, 100, 20);
      const double step = t.field + t.tips;
      const double field_bw = 32.0 * nodes / t.field;  // read n, f, c; write n
      const std::string& block = variant.name;
      std::printf("| %s | %s | %.4f | %.4f | %.4f | %.1f%% | %.0f | %.0f%% | %.0fx | %.0fx |\n",
                  grid.c_str(), block.c_str(), 1e3 * step, 1e3 * t.field, 1e3 * t.tips,
                  100 * t.tips / step, field_bw / 1e9, 100 * field_bw / copy_bw,
                  cpu_all_step / step, cpu_one_step / step);
      csv << grid << ',' << block << ',' << 1e3 * t.field << ',' << 1e3 * t.tips << ','
          << 1e3 * step << ',' << 1e3 * cpu_all_step << ',' << 1e3 * cpu_one_step << ','
          << cpu_all_step / step << ',' << cpu_one_step / step << ',' << field_bw / 1e9 << ','
          << field_bw / copy_bw << ',' << t.tips / step << '\n';
    }
    std::printf("| %s | CPU %u thr / 1 thr | %.2f / %.2f | | | | | | | |\n", grid.c_str(), cores,
                1e3 * cpu_all_step, 1e3 * cpu_one_step);
    std::fflush(stdout);
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run_benchmark(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stencil3d-bench: %s\n", e.what());
    return 1;
  }
}
