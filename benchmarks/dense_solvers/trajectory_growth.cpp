// gepp-trajectory-bench: De Luca et al.'s Table 5 / Fig. 3 — how the relative difference
// between the GPU (gepp-cuda) and CPU (gepp-cpu) trajectories of the angiogenesis-1d IMEX run
// (M = 400, dt = 0.01) grows with the step count, and the exponent p of difference ~ step^p
// fitted over every step, beside the paper's 0.487. Writes the per-step differences as CSV.
//
//   gepp-trajectory-bench [--steps N] [--M M] [--csv FILE]
#include <solvent_test/trajectory_difference.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv) try {
  std::int64_t steps = 1000, m = 400;
  std::string csv = "gepp-trajectory.csv";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--steps"))
      steps = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--M"))
      m = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--csv"))
      csv = argv[i + 1];
    else {
      std::fprintf(stderr, "usage: gepp-trajectory-bench [--steps N] [--M M] [--csv FILE]\n");
      return 2;
    }
  }
  // The CPU factors once: the same elimination as refactoring every step, in minutes less.
  const auto cpu =
      solvent::test::run_trajectory("gepp-cpu", {{"reuse_factorization", true}}, m, steps);
  std::printf(
      "| gepp-cuda mode | steps | difference at step 1, 10, 100, last | growth exponent "
      "(points) | De Luca et al. |\n|---|---:|---|---:|---:|\n");
  for (const std::string mode : {"paper", "best"}) {
    const auto gpu = solvent::test::run_trajectory("gepp-cuda", {{"mode", mode}}, m, steps);
    const auto d = solvent::test::per_step_difference(gpu, cpu);
    solvent::test::write_difference_csv(mode + "-" + csv, d);
    const auto fit = solvent::test::fit_growth(d);
    auto at = [&](std::size_t k) { return k < d.size() ? d[k] : std::nan(""); };
    std::printf("| %s | %lld | %.2e, %.2e, %.2e, %.2e | %.3f (%zu) | 0.487 |\n", mode.c_str(),
                static_cast<long long>(steps), at(1), at(10), at(100), d.back(), fit.exponent,
                fit.points);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gepp-trajectory-bench: %s\n", e.what());
  return 1;
}
