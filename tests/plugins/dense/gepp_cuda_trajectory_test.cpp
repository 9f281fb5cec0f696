// gepp-cuda on the angiogenesis-1d system: every switch combination against gepp-cpu on a
// small grid, and De Luca et al.'s validation: the M = 400, dt = 0.01, 100-step IMEX trajectory
// on the GPU (paper, best and blocked modes) against the CPU, step by step.
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include "gepp_cpu_reference.hpp"

#include <solvent_test/trajectory_difference.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using solvent::testkit::Settings;

namespace {

solvent::DenseMatrix<double> implicit_matrix(std::int64_t m, double dt) {
  auto model = solvent::testkit::make_model("angiogenesis-1d", {{"M", m}});
  return solvent::test::implicit_matrix(model->imex()->linear_operator(), dt);
}

using solvent::test::relative_difference;

}  // namespace

TEST_CASE("switches: every combination solves the angiogenesis system as gepp-cpu does (M = 25)") {
  const auto a = implicit_matrix(25, 0.01);
  const auto op = std::make_shared<const solvent::Operator>(a);
  const auto [b, reference] = gepp_cpu_reference(op, a.rows);
  std::vector<double> x(a.rows);

  for (const char* kernels : {"paper", "fused"})
    for (const char* launch : {"sync", "stream", "graph"})
      for (const bool resident : {false, true})
        for (const bool reuse : {false, true})
          for (const bool skip : {false, true})
            for (const char* substitution : {"host", "device"}) {
              const Settings s{{"kernels", std::string(kernels)},
                               {"launch", std::string(launch)},
                               {"resident_matrix", resident},
                               {"reuse_factorization", reuse},
                               {"skip_zero_blocks", skip},
                               {"back_substitution", std::string(substitution)}};
              INFO("kernels=" << std::string(kernels) << " launch=" << std::string(launch)
                              << " resident=" << resident << " reuse=" << reuse << " skip=" << skip
                              << " substitution=" << std::string(substitution));
              auto gpu = solvent::testkit::make_linear_solver("gepp-cuda", s);
              gpu->setup(op);
              for (int repeat = 0; repeat < 2; ++repeat) {
                std::fill(x.begin(), x.end(), std::nan(""));
                gpu->solve(std::span<const double>(b), std::span<double>(x));
                CHECK(relative_difference(x, reference) <= 1e-14);
              }
            }
}

TEST_CASE("validation: the M = 400 trajectory on the GPU agrees with gepp-cpu at every step") {
  // The CPU reference factors once (substitution per step): the same elimination, and 100
  // refactorisations of order 1600 on one core would take minutes.
  const auto cpu =
      solvent::test::run_trajectory("gepp-cpu", {{"reuse_factorization", true}}, 400, 100);
  REQUIRE(cpu.states.size() == 101);
  for (const std::string mode : {"paper", "best", "blocked"}) {
    const auto gpu = solvent::test::run_trajectory("gepp-cuda", {{"mode", mode}}, 400, 100);
    REQUIRE(gpu.states.size() == cpu.states.size());
    const auto difference = solvent::test::per_step_difference(gpu, cpu);
    double worst_mass = 0.0;
    for (std::size_t step = 0; step < cpu.states.size(); ++step) {
      const double m = std::fabs(gpu.mass_c[step] - cpu.mass_c[step]) / std::fabs(cpu.mass_c[step]);
      INFO("mode " << mode << ", step " << step);
      CHECK(difference[step] <= 1e-12);
      CHECK(m <= 1e-13);
      worst_mass = std::max(worst_mass, m);
    }
    // Every step's difference, for the growth the paper plots (its Fig. 3).
    solvent::test::write_difference_csv("gepp-cuda-" + mode + "-vs-gepp-cpu.csv", difference);
    const auto fit = solvent::test::fit_growth(difference);
    std::printf(
        "validation M=400 dt=0.01 100 steps, gepp-cuda %s vs gepp-cpu: max relative state "
        "difference %.3e, max relative mass_C difference %.3e, growth exponent %.3f over %zu "
        "steps (De Luca et al.: 0.487)\n",
        mode.c_str(), *std::max_element(difference.begin(), difference.end()), worst_mass,
        fit.exponent, fit.points);
  }
}
