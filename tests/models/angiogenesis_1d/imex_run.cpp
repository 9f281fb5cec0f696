#include "imex_run.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

namespace angio1d_test {

namespace {
class Recorder : public solvent::Observer {
 public:
  explicit Recorder(Trajectory& t) : traj_(t) {}
  void on_step(const solvent::StepInfo& info, std::span<const double> u,
               std::span<const solvent::Observable> obs) override {
    traj_.t.push_back(info.t);
    traj_.states.emplace_back(u.begin(), u.end());
    traj_.observables.emplace_back(obs.begin(), obs.end());
  }

 private:
  Trajectory& traj_;
};
}  // namespace

double Trajectory::observable(std::size_t step, const std::string& name) const {
  for (const auto& o : observables.at(step))
    if (o.name == name) return o.value;
  FAIL("no observable " << name);
  return 0.0;
}

std::string fact(const solvent::Facts& facts, const std::string& key) {
  for (const auto& [k, v] : facts)
    if (k == key) return v;
  FAIL("no fact " << key);
  return {};
}

Trajectory run(const RunSpec& spec) {
  Trajectory traj;
  run_into(spec, traj);
  return traj;
}

void run_into(const RunSpec& spec, Trajectory& traj) {
  traj.model = solvent::testkit::make_model("angiogenesis-1d", spec.model);
  auto integrator = solvent::testkit::make_integrator(spec.integrator, spec.integrator_settings);
  auto solver = solvent::testkit::make_linear_solver(spec.solver, spec.solver_settings);
  Recorder recorder(traj);
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &recorder;
  ctx.timer = &timer;
  ctx.seed = 42;
  integrator->run(*traj.model, solver.get(), ctx);
  traj.integrator_facts = integrator->facts();
  traj.solver_facts = solver->facts();
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return d / scale;
}

double relative_difference(const Trajectory& a, const Trajectory& b) {
  REQUIRE(a.states.size() == b.states.size());
  double d = 0.0;
  for (std::size_t k = 0; k < a.states.size(); ++k)
    d = std::max(d, relative_difference(a.states[k], b.states[k]));
  return d;
}

double error_against_exact(const Trajectory& a) {
  std::vector<double> exact(a.last().size());
  REQUIRE(a.model->imex()->exact_state(a.t.back(), exact));
  double e = 0.0;
  for (std::size_t i = 0; i < exact.size(); ++i) e = std::max(e, std::abs(a.last()[i] - exact[i]));
  return e;
}

double fitted_order(const std::vector<double>& sizes, const std::vector<double>& errors) {
  const double n = double(sizes.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    mx += std::log(sizes[i]) / n;
    my += std::log(errors[i]) / n;
  }
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    sxy += (std::log(sizes[i]) - mx) * (std::log(errors[i]) - my);
    sxx += (std::log(sizes[i]) - mx) * (std::log(sizes[i]) - mx);
  }
  return sxy / sxx;
}

}  // namespace angio1d_test
