// explicit-stencil3d on CUDA against the CPU engine for the grids 100^3, 200^3, 300^3 and
// 400 x 400 x 140 (Darbyshire's Tables 3 and 4).
//
// --mode hybrid (default): time per step (tip phase and vessel uptake; a step touches the
// tips and the vessel nodes only). --mode continuous: the update of n, f and c at every
// node, for every block shape of the CUDA engine (integrator.cuda_block): time per step of
// the kernel alone and with the transfers (upload, steps, download), speed-up over the
// serial CPU engine, and the effective bandwidth, 48 bytes a node a step (n, f, c read and
// written once: the paper's count) over the kernel's time, against the device's measured
// copy bandwidth.
//
// Before timing, the CUDA state after the CPU's timed steps is compared byte for byte
// with the CPU's. Timings: CUDA events, medians of chunks of steps after warm-up; CPU:
// steady_clock, median of single steps.
//
//   stencil3d-bench [--mode hybrid|continuous] [--steps 1000] [--cpu-steps 3]
//                   [--grid NXxNYxNZ (one grid only)] [--block SHAPE (one shape only)]
//                   [--out bench.csv]
#include <solvent_stencil3d/simulation_state.hpp>
#include <solvent_stencil3d/stencil_engine.hpp>

#include <solvent/plugin_factory.hpp>
#include <solvent_test/device_timing.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using solvent::stencil3d::SimulationState;

struct Options {
  std::string mode = "hybrid";
  std::int64_t steps = 1000;
  std::int64_t cpu_steps = 3;
  std::string grid;   // empty: all four
  std::string block;  // empty: every shape
  std::string out = "stencil3d_bench.csv";
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

solvent::angiogenesis_3d::Parameters parameters(std::int64_t nx, std::int64_t ny, std::int64_t nz,
                                                const std::string& mode) {
  static std::vector<std::shared_ptr<solvent::Model>> keep;  // the block lives in the model
  keep.push_back(solvent::plugins::make_model(
      "angiogenesis-3d", {{"nx", nx}, {"ny", ny}, {"nz", nz}, {"mode", mode}}));
  return *solvent::family<solvent::angiogenesis_3d::ParametersFamily>(*keep.back());
}

// Seconds per step: the median over chunks of `chunk` steps.
double time_engine(solvent::stencil3d::StencilEngine& e, const SimulationState& s,
                   std::int64_t steps, std::int64_t chunk, std::int64_t warmup) {
  e.load(s);
  if (warmup > 0) e.timed_steps(warmup);
  std::vector<double> per_step;
  for (std::int64_t done = 0; done < steps; done += chunk) {
    const auto n = std::min(chunk, steps - done);
    per_step.push_back(e.timed_steps(n) / static_cast<double>(n));
  }
  return median(per_step);
}

bool same_state(const SimulationState& a, const SimulationState& b) {
  auto eq = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  return eq(a.f, b.f) && eq(a.c, b.c) && eq(a.n, b.n) && eq(a.owner, b.owner) && eq(a.node, b.node) &&
         eq(a.active, b.active) && eq(a.birth, b.birth) && eq(a.segments, b.segments) &&
         eq(a.vessel, b.vessel) && std::memcmp(&a.counters, &b.counters, sizeof a.counters) == 0;
}

// Seconds per step with the transfers: upload, `steps` steps, download, on the host clock.
double with_transfers(solvent::stencil3d::StencilEngine& e, const SimulationState& s,
                      std::int64_t steps) {
  using clock = std::chrono::steady_clock;
  SimulationState out = s;
  const auto a = clock::now();
  e.load(s);
  e.timed_steps(steps);
  e.store(out);
  return std::chrono::duration<double>(clock::now() - a).count() / static_cast<double>(steps);
}

// The continuous mode on one grid: the serial CPU engine, then every block shape.
void continuous_tables(const Options& opt, const SimulationState& init, const std::string& grid,
                       double copy_gbs, std::ofstream& csv) {
  auto cpu = solvent::stencil3d::make_cpu_engine();
  const double cpu_step = time_engine(*cpu, init, opt.cpu_steps, 1, 0);
  SimulationState cpu_state;
  cpu->store(cpu_state);
  const double bytes = 48.0 * static_cast<double>(init.n.size());
  for (const char* shape : solvent::stencil3d::field_block_names) {
    if (!opt.block.empty() && opt.block != shape) continue;
    auto cuda = solvent::stencil3d::make_cuda_engine(
        solvent::single_rank(), solvent::stencil3d::field_blocks(shape, "--block"));
    cuda->load(init);
    for (std::int64_t q = 0; q < opt.cpu_steps; ++q) cuda->step();
    SimulationState cuda_state;
    cuda->store(cuda_state);
    if (!same_state(cpu_state, cuda_state)) {
      std::printf("| %s | %s | the CUDA state differs from the CPU's: not timed |\n",
                  grid.c_str(), shape);
      continue;
    }
    const double step = time_engine(*cuda, init, opt.steps, 100, 20);
    const double total = with_transfers(*cuda, init, opt.steps);
    const double gbs = bytes / step * 1e-9;
    std::printf("| %s | %s | %.4f | %.4f | %.2f | %.1fx | %.1fx | %.0f | %.0f %% |\n",
                grid.c_str(), shape, 1e3 * step, 1e3 * total, 1e3 * cpu_step, cpu_step / step,
                cpu_step / total, gbs, 100.0 * gbs / copy_gbs);
    csv << grid << ',' << shape << ',' << 1e3 * step << ',' << 1e3 * total << ','
        << 1e3 * cpu_step << ',' << cpu_step / step << ',' << cpu_step / total << ',' << gbs
        << ',' << gbs / copy_gbs << '\n';
    std::fflush(stdout);
  }
}

}  // namespace

int run_benchmark(int argc, char** argv) {
  Options opt;
  for (int a = 1; a + 1 < argc; a += 2) {
    const std::string key = argv[a];
    if (key == "--mode")
      opt.mode = argv[a + 1];
    else if (key == "--block")
      opt.block = argv[a + 1];
    else if (key == "--grid")
      opt.grid = argv[a + 1];
    else if (key == "--steps")
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

  if (opt.mode != "hybrid" && opt.mode != "continuous") {
    std::fprintf(stderr, "--mode %s: hybrid or continuous\n", opt.mode.c_str());
    return 2;
  }
  const bool continuous = opt.mode == "continuous";
  auto probe = solvent::stencil3d::make_cuda_engine();
  std::printf("device: %s\n\n", probe->device_name().c_str());
  std::ofstream csv(opt.out);
  double copy_gbs = 0.0;
  if (continuous) {
    copy_gbs = solvent::test::copy_bandwidth_gbs(std::size_t{1} << 30);
    std::printf("%s\ndevice copy bandwidth %.0f GB/s (read + write)\n\n",
                solvent::test::device_description().c_str(), copy_gbs);
    csv << "grid,block,kernel_ms,with_transfers_ms,cpu_ms,speedup_kernel,speedup_with_transfers,"
           "gb_per_s,of_copy\n";
    std::printf(
        "| grid | block | kernel (ms/step) | with transfers (ms/step) | serial CPU (ms/step) | "
        "speed-up, kernel | speed-up, with transfers | GB/s (48 B/node) | of copy BW |\n"
        "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  } else {
    csv << "grid,gpu_step_ms,cpu_step_ms,speedup\n";
    std::printf("| grid | GPU step (ms) | CPU step (ms) | speed-up |\n|---|---|---|---|\n");
  }
  for (const auto& g : grids) {
    const std::string grid =
        std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" + std::to_string(g[2]);
    if (!opt.grid.empty() && opt.grid != grid) continue;
    const auto p = parameters(g[0], g[1], g[2], opt.mode);
    const auto init = solvent::stencil3d::initial_state(p, dt, seed, 1 << 22);
    if (continuous) {
      continuous_tables(opt, init, grid, copy_gbs, csv);
      continue;
    }
    auto cpu = solvent::stencil3d::make_cpu_engine();
    const double cpu_step = time_engine(*cpu, init, opt.cpu_steps, 1, 0);
    SimulationState cpu_state;
    cpu->store(cpu_state);
    // The CUDA engine must reproduce the CPU's state bit for bit before it is timed.
    auto cuda = solvent::stencil3d::make_cuda_engine();
    cuda->load(init);
    for (std::int64_t q = 0; q < opt.cpu_steps; ++q) cuda->step();
    SimulationState cuda_state;
    cuda->store(cuda_state);
    if (!same_state(cpu_state, cuda_state)) {
      std::printf("%s: the CUDA state after %lld steps differs from the CPU's; not timed\n",
                  grid.c_str(), static_cast<long long>(opt.cpu_steps));
      continue;
    }
    const double step = time_engine(*cuda, init, opt.steps, 100, 20);
    std::printf("| %s | %.4f | %.4f | %.1fx |\n", grid.c_str(), 1e3 * step, 1e3 * cpu_step,
                cpu_step / step);
    csv << grid << ',' << 1e3 * step << ',' << 1e3 * cpu_step << ',' << cpu_step / step << '\n';
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
