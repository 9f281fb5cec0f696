// `matm-cuda` against `matm`: the same iterates to rounding, for both sweep layouts and
// several block shapes, on grids that are no multiple of any block. Needs a GPU: without
// one it prints why and exits 77, which CTest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <solvent_test/grid_system.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using solvent::test::fact;
using solvent::test::Settings;

namespace {

const Settings convection{{"n1", std::int64_t(45)},
                          {"n2", std::int64_t(37)},
                          {"n3", std::int64_t(29)},
                          {"problem", std::string("convection-diffusion")},
                          {"velocity", std::string("rotating")},
                          {"peclet", 40.0},
                          {"domain", std::string("basin")}};
const Settings poisson{
    {"n1", std::int64_t(70)}, {"n2", std::int64_t(33)}, {"n3", std::int64_t(41)}};

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, n = 0;
  for (std::size_t m = 0; m < a.size(); ++m) {
    d = std::max(d, std::abs(a[m] - b[m]));
    n = std::max(n, std::abs(a[m]));
  }
  return d / n;
}

void compare_with_cpu(const Settings& model, Settings gpu) {
  // A few iterations: every iterate's residual and the iterate itself agree to rounding.
  gpu["max_iterations"] = std::int64_t(8);
  const auto cpu8 = solvent::test::solve_grid(model, "matm", {{"max_iterations", std::int64_t(8)}});
  const auto gpu8 = solvent::test::solve_grid(model, "matm-cuda", gpu);
  REQUIRE(gpu8.stats.residual_history.size() == cpu8.stats.residual_history.size());
  for (std::size_t i = 0; i < cpu8.stats.residual_history.size(); ++i)
    CHECK(gpu8.stats.residual_history[i] ==
          doctest::Approx(cpu8.stats.residual_history[i]).epsilon(1e-9));
  CHECK(max_relative_difference(cpu8.x, gpu8.x) < 1e-10);
  for (const char* p : {"omega", "s", "k", "theta", "tau"})
    CHECK(std::stod(fact(gpu8.facts, p)) ==
          doctest::Approx(std::stod(fact(cpu8.facts, p))).epsilon(1e-5));
  // To convergence: the same iteration count (one apart at most) and solution.
  gpu["max_iterations"] = std::int64_t(3000);
  const auto cpu =
      solvent::test::solve_grid(model, "matm", {{"max_iterations", std::int64_t(3000)}});
  const auto dev = solvent::test::solve_grid(model, "matm-cuda", gpu);
  REQUIRE(dev.stats.converged);
  CHECK(std::abs(dev.stats.iterations - cpu.stats.iterations) <= 1);
  CHECK(max_relative_difference(cpu.x, dev.x) < 1e-7);
  CHECK(dev.error_max == doctest::Approx(cpu.error_max).epsilon(1e-4));
}

}  // namespace

TEST_CASE("warp-scan sweeps, several block shapes: the CPU's iterates") {
  const std::pair<int, int> shapes[] = {{32, 1}, {32, 4}, {64, 2}, {128, 8}};
  for (auto [bx, bz] : shapes) {
    INFO("block " << bx << " x " << bz);
    compare_with_cpu(convection, {{"block_x", std::int64_t(bx)}, {"block_z", std::int64_t(bz)}});
  }
  compare_with_cpu(poisson, {});
}

TEST_CASE("a self-adjoint operator: A0 w formed inside the sweep, the CPU's iterates") {
  // Blocks of at most 512 threads form A0 w in the sweep that takes it (one with a hand-off
  // at every layer and column among them); 64 x 16 has 1024 and stores it first.
  const std::pair<int, int> shapes[] = {{32, 1}, {64, 8}, {256, 2}, {64, 16}};
  for (auto [bx, bz] : shapes) {
    INFO("block " << bx << " x " << bz);
    compare_with_cpu(poisson, {{"block_x", std::int64_t(bx)}, {"block_z", std::int64_t(bz)}});
  }
  compare_with_cpu(poisson, {{"sweep", std::string("paper")},
                             {"block_x", std::int64_t(16)},
                             {"block_z", std::int64_t(4)}});
}

TEST_CASE("blocks that wait on a neighbour at every layer: the same bits on every solve") {
  // block_z = 1 makes every z layer a hand-off between blocks, 32-node tiles every x column
  // a hand-off too: a value read before its block stored it would show as a NaN or as bits
  // that change from one solve to the next.
  for (const auto& [model, sweep] :
       {std::pair{convection, "warp-scan"}, std::pair{convection, "paper"},
        std::pair{poisson, "warp-scan"}}) {
    INFO("sweep " << sweep);
    const Settings gpu{{"sweep", std::string(sweep)},
                       {"block_x", std::int64_t(32)},
                       {"block_z", std::int64_t(1)},
                       {"max_iterations", std::int64_t(8)}};
    const auto first = solvent::test::solve_grid(model, "matm-cuda", gpu);
    const auto second = solvent::test::solve_grid(model, "matm-cuda", gpu);
    CHECK(first.stats.residual_history == second.stats.residual_history);
    CHECK(first.x == second.x);
    CHECK(std::isfinite(first.stats.residual));
  }
}

TEST_CASE("a sweep block over the launch bound is refused with its size") {
  try {
    solvent::testkit::make_linear_solver(
        "matm-cuda", {{"block_x", std::int64_t(64)}, {"block_z", std::int64_t(32)}});
    FAIL("no error");
  } catch (const solvent::ConfigError& e) {
    CHECK(std::string(e.what()) ==
          "matm-cuda: block_x * block_z = 2048 exceeds 1024 threads per block");
  }
}

TEST_CASE("the paper's Algorithm 2 sweeps: the CPU's iterates") {
  // 64 x 10 is the 640 threads of Sukhinov et al.'s tuning experiment: the build for blocks
  // over 512 threads.
  const std::pair<int, int> shapes[] = {{16, 4}, {33, 3}, {64, 8}, {64, 10}};
  for (auto [bx, bz] : shapes) {
    INFO("block " << bx << " x " << bz);
    compare_with_cpu(convection, {{"sweep", std::string("paper")},
                                  {"block_x", std::int64_t(bx)},
                                  {"block_z", std::int64_t(bz)}});
  }
}

TEST_CASE("given omega and tau: the CPU's iterates and its iteration count") {
  for (const Settings* model : {&convection, &poisson}) {
    const Settings given{{"parameters", std::string("given")},
                         {"omega", 10.0},
                         {"tau", 30.0},
                         {"max_iterations", std::int64_t(3000)}};
    const auto cpu = solvent::test::solve_grid(*model, "matm", given);
    const auto gpu = solvent::test::solve_grid(*model, "matm-cuda", given);
    REQUIRE(cpu.stats.converged);
    REQUIRE(gpu.stats.converged);
    CHECK(std::abs(gpu.stats.iterations - cpu.stats.iterations) <= 1);
    const std::size_t common = std::min<std::size_t>(20, cpu.stats.residual_history.size());
    for (std::size_t i = 0; i < common; ++i)
      CHECK(gpu.stats.residual_history[i] ==
            doctest::Approx(cpu.stats.residual_history[i]).epsilon(1e-9));
    CHECK(max_relative_difference(cpu.x, gpu.x) < 1e-7);
    CHECK(fact(gpu.facts, "parameters") == "given");
    CHECK(fact(gpu.facts, "operations_per_node") == fact(cpu.facts, "operations_per_node"));
  }
}

TEST_CASE("the device time by phase: each phase of the iteration, adding up to the device time") {
  // Convection-diffusion takes every phase but the ghost exchanges (one rank).
  const auto r =
      solvent::test::solve_grid(convection, "matm-cuda", {{"max_iterations", std::int64_t(3000)}});
  REQUIRE(r.stats.converged);
  const std::string phases = fact(r.facts, "device_ms_per_iteration_by_phase");
  INFO(phases);
  double sum = 0.0;
  std::vector<std::string> names;
  std::size_t at = 0;
  while (at < phases.size()) {
    const std::size_t end = std::min(phases.find(", ", at), phases.size());
    const std::string part = phases.substr(at, end - at);
    const std::size_t space = part.rfind(' ');
    names.push_back(part.substr(0, space));
    const double ms = std::stod(part.substr(space + 1));
    CHECK(ms > 0.0);
    sum += ms;
    at = end + 2;
  }
  CHECK(names == std::vector<std::string>{"residual", "lower sweep of r", "upper sweep",
                                          "A0 w and its lower sweep", "lower sweep of A1 w",
                                          "sums and host"});
  // The phases cover the solve's device time but its last interval (the iterate's way back).
  const double total =
      1e3 * std::stod(fact(r.facts, "device_seconds")) / double(r.stats.iterations);
  CHECK(sum <= total * (1 + 1e-3));
  CHECK(sum >= 0.9 * total);
}

TEST_CASE("conformance kit") {
  solvent::testkit::LinearSolverChecks c;
  c.kind = solvent::OperatorKind::Stencil7;
  c.direct = false;
  c.tolerance = 1e-10;
  solvent::testkit::check_linear_solver("matm-cuda", {{"tolerance", 1e-10}}, c);
}

TEST_CASE("unconverged: status and the iterate's residual") {
  const auto r =
      solvent::test::solve_grid(poisson, "matm-cuda", {{"max_iterations", std::int64_t(4)}});
  CHECK_FALSE(r.stats.converged);
  CHECK(r.stats.status == "max_iterations");
  CHECK(r.stats.iterations == 4);
}

TEST_CASE("a grid dimension below 3: the same message as on the CPU, named matm-cuda") {
  auto solver = solvent::testkit::make_linear_solver("matm-cuda");
  solvent::Stencil7<double> a(5, 2, 5);
  try {
    solver->setup(std::make_shared<const solvent::Operator>(a));
    FAIL("no error");
  } catch (const solvent::SolverError& e) {
    CHECK(std::string(e.what()) ==
          "matm-cuda: grid 5 x 2 x 5: every dimension must be at least 3 (a layer of boundary "
          "nodes on each side)");
  }
}

int main(int argc, char** argv) {
  try {
    auto solver = solvent::testkit::make_linear_solver("matm-cuda");
    solvent::Stencil7<double> a(3, 3, 3);
    for (auto& c : a.c[0]) c = 1.0;
    solver->setup(std::make_shared<const solvent::Operator>(a));
  } catch (const solvent::DeviceUnavailable& e) {
    std::printf("skipped: %s\n", e.what());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
