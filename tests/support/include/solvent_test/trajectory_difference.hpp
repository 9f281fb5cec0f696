#pragma once
// De Luca et al.'s validation of gepp-cuda (their Table 5 and Fig. 3): the same IMEX
// trajectory of angiogenesis-1d on the GPU and on the CPU, the relative difference of the
// states at every step, and the exponent p of its growth, difference ~ step^p (the paper fits
// 0.487: rounding differences that add up like a random walk). Shared by the gepp-cuda GPU
// test, which writes the differences, and gepp-trajectory-bench, which fits longer runs.
#include <solvent_test/implicit_system.hpp>

#include <solvent/plugin_factory.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace solvent::test {

struct Trajectory : solvent::Observer {
  void on_step(const solvent::StepInfo&, std::span<const double> u,
               std::span<const solvent::Observable> observables) override {
    states.emplace_back(u.begin(), u.end());
    for (const auto& o : observables)
      if (o.name == "mass_C") mass_c.push_back(o.value);
  }
  std::vector<std::vector<double>> states;  // step 0 (the initial state) first
  std::vector<double> mass_c;
};

// `steps` imex-trapezoid steps of dt = 0.01 on M grid points with the named solver.
inline Trajectory run_trajectory(const std::string& solver_name,
                                 const solvent::plugins::Settings& solver_settings, std::int64_t m,
                                 std::int64_t steps) {
  auto model = solvent::plugins::make_model("angiogenesis-1d", {{"M", m}});
  auto integrator =
      solvent::plugins::make_integrator("imex-trapezoid", {{"dt", 0.01}, {"steps", steps}});
  auto solver = solvent::plugins::make_linear_solver(solver_name, solver_settings);
  Trajectory t;
  solvent::PhaseTimer timer;
  solvent::RunContext context;
  context.observer = &t;
  context.timer = &timer;
  integrator->run(*model, solver.get(), context);
  return t;
}

// ||a_k - b_k|| / ||b_k|| for every step k.
inline std::vector<double> per_step_difference(const Trajectory& a, const Trajectory& b) {
  std::vector<double> d;
  for (std::size_t k = 0; k < std::min(a.states.size(), b.states.size()); ++k)
    d.push_back(relative_difference(a.states[k], b.states[k]));
  return d;
}

struct GrowthFit {
  double exponent = std::nan("");  // least-squares slope of log(difference) on log(step)
  std::size_t points = 0;          // the steps >= 1 with a non-zero difference
};

inline GrowthFit fit_growth(const std::vector<double>& difference) {
  std::vector<double> x, y;
  for (std::size_t k = 1; k < difference.size(); ++k)
    if (difference[k] > 0.0) {
      x.push_back(std::log(double(k)));
      y.push_back(std::log(difference[k]));
    }
  GrowthFit f;
  f.points = x.size();
  if (x.size() < 2) return f;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i];
    my += y[i];
  }
  mx /= double(x.size());
  my /= double(x.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
  }
  f.exponent = sxy / sxx;
  return f;
}

inline void write_difference_csv(const std::string& path, const std::vector<double>& difference) {
  std::ofstream out(path);
  out << "step,relative_difference\n";
  out.precision(17);
  for (std::size_t k = 0; k < difference.size(); ++k) out << k << ',' << difference[k] << '\n';
}

}  // namespace solvent::test
