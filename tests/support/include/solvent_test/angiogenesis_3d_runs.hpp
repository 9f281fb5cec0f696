#pragma once
// Running the angiogenesis-3d model through the explicit-stencil3d plugin as `solvent run`
// does, on grids small enough for CI, with parameters that make tips move and branch
// within a few hundred steps.
#include "io/field_series.hpp"

#include <solvent/testkit.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent_family_angiogenesis_3d/parameters.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace solvent::test {

using solvent::testkit::Settings;
namespace fs = std::filesystem;

// 21^3 nodes, fast diffusion and taxis, eager branching, no early stop.
inline Settings fast_model(std::int64_t n = 21) {
  return {{"nx", n},
          {"ny", n},
          {"nz", n},
          {"parameters.D", 0.05},
          {"parameters.chi0", 2.0},
          {"branching.age", 0.02},
          {"branching.density_factor", 0.5},
          {"branching.probabilities", std::vector<double>{0.5, 0.5, 0.5, 0.5, 0.5}},
          {"branching.max_tips", std::int64_t(100)},
          {"stop_x", 2.0}};
}

// The continuous mode on n^3 nodes: a smooth initial n (n_width 0.05), a spherical tumour
// (so that n, f and c vary on every axis), diffusion that outweighs taxis over a cell on
// grids from 17^3 (every weight of the update non-negative).
inline Settings continuous_model(std::int64_t n = 17) {
  return {{"nx", n},
          {"ny", n},
          {"nz", n},
          {"mode", std::string("continuous")},
          {"tumour", std::string("spherical")},
          {"parameters.D", 0.02},
          {"parameters.n_width", 0.05},
          {"parameters.beta", 0.5},
          {"parameters.gamma", 1.0},
          {"parameters.eta", 1.0}};
}

inline Settings integrator(std::int64_t steps, Settings extra = {}) {
  Settings s{{"dt", 0.004}, {"steps", steps}, {"threads", std::int64_t(2)}, {"png", false}};
  for (auto& [k, v] : extra) s[k] = v;
  return s;
}

class RecordingObserver : public solvent::Observer {
 public:
  void on_step(const solvent::StepInfo& info, std::span<const double>,
               std::span<const solvent::Observable> obs) override {
    steps.push_back(info.step);
    rows.emplace_back(obs.begin(), obs.end());
  }
  double last(const std::string& name) const {
    for (const auto& o : rows.back())
      if (o.name == name) return o.value;
    FAIL("no observable " << name);
    return 0.0;
  }
  std::vector<std::int64_t> steps;
  std::vector<std::vector<solvent::Observable>> rows;
};

inline fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("angiogenesis3d-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct RunOutcome {
  solvent::RunResult result;
  RecordingObserver observer;
};

inline RunOutcome run(const Settings& model, const Settings& integ, const fs::path& dir,
                      std::uint64_t seed = 7, std::optional<fs::path> resume = std::nullopt) {
  auto m = solvent::testkit::make_model("angiogenesis-3d", model);
  auto i = solvent::testkit::make_integrator("explicit-stencil3d", integ);
  RunOutcome out;
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.output_dir = dir;
  ctx.seed = seed;
  ctx.resume_from = resume;
  ctx.observer = &out.observer;
  ctx.timer = &timer;
  // The fields and network as `solvent run` writes them by default (binary VTK, series.pvd).
  solvent::Parameters output;
  output.set("format", std::string("vtk"));
  output.set("precision", std::string("float64"));
  solvent::FieldSeries fields(dir, output, solvent::single_rank(), resume.has_value());
  ctx.fields = &fields;
  std::string why;
  REQUIRE(i->accepts(*m, why));
  out.result = i->run(*m, nullptr, ctx);
  return out;
}

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot read " << p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The state in a run's checkpoint.bin.
inline solvent::stencil3d::SimulationState load_checkpoint(const fs::path& dir,
                                                           const Settings& model, double dt,
                                                           std::uint64_t seed) {
  auto m = solvent::testkit::make_model("angiogenesis-3d", model);
  const auto& p = *solvent::family<solvent::angiogenesis_3d::ParametersFamily>(*m);
  const auto grid = solvent::stencil3d::whole_grid(solvent::angiogenesis_3d::grid_of(p));
  return solvent::stencil3d::restore_checkpoint(dir, p, dt, seed, grid, grid,
                                                solvent::single_rank());
}

}  // namespace solvent::test
