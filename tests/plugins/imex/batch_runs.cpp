#include "batch_runs.hpp"

#include <solvent/solvent.hpp>
#include <solvent/ensemble.hpp>
#include <solvent_test/ensemble_members.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace batch_test {

namespace tk = solvent::testkit;

namespace {

Settings integrator_settings(double dt, std::int64_t steps, const Settings& extra) {
  Settings s = extra;
  s["dt"] = dt;
  s["steps"] = steps;
  return s;
}

}  // namespace

MemberRun single_run(const Settings& model_settings, double dt, std::int64_t steps) {
  auto model = tk::make_model("angiogenesis-1d", model_settings);
  auto integrator = tk::make_integrator("imex-trapezoid", integrator_settings(dt, steps, {}));
  auto solver = tk::make_linear_solver("banded");
  solvent::test::LastReport observer;
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &observer;
  ctx.timer = &timer;
  integrator->run(*model, solver.get(), ctx);
  return {observer.state, observer.observables, observer.step, {}};
}

std::vector<MemberRun> batched_run(const std::string& integrator_name,
                                   const std::vector<Settings>& models, double dt,
                                   std::int64_t steps, const Settings& extra,
                                   const solvent::EnsembleCheckpoint& checkpoint,
                                   std::size_t* reported) {
  const std::size_t count = models.size();
  std::vector<std::shared_ptr<solvent::Model>> members;
  std::vector<solvent::test::LastReport> observers(count);
  std::vector<solvent::PhaseTimer> timers(count);
  std::vector<solvent::RunContext> contexts(count);
  for (std::size_t b = 0; b < count; ++b) {
    members.push_back(tk::make_model("angiogenesis-1d", models[b]));
    contexts[b].observer = &observers[b];
    contexts[b].timer = &timers[b];
  }
  auto* ensemble = solvent::family<solvent::EnsembleFamily>(*members[0]);
  REQUIRE(ensemble != nullptr);
  for (std::size_t b = 1; b < count; ++b)
    ensemble->others.push_back({members[b].get(), &contexts[b], {}, {}});
  ensemble->checkpoint = checkpoint;
  auto integrator = tk::make_integrator(integrator_name, integrator_settings(dt, steps, extra));
  std::string lead_failure;
  try {
    integrator->run(*members[0], nullptr, contexts[0]);
  } catch (const solvent::DivergenceError& e) {
    lead_failure = e.what();
  } catch (...) {
    if (reported != nullptr)
      *reported = std::size_t(std::count_if(observers.begin(), observers.end(),
                                            [](const auto& o) { return !o.state.empty(); }));
    throw;
  }
  std::vector<MemberRun> runs;
  for (std::size_t b = 0; b < count; ++b) {
    runs.push_back({observers[b].state, observers[b].observables, observers[b].step, {}});
    runs.back().failure = b == 0 ? lead_failure : ensemble->others[b - 1].failure;
  }
  return runs;
}

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0, s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    s = std::max(s, std::abs(b[i]));
  }
  return d / s;
}

}  // namespace batch_test
