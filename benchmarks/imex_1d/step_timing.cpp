#include "step_timing.hpp"

#include <algorithm>
#include <chrono>

namespace imex_bench {

namespace {
class StepClock : public solvent::Observer {
 public:
  explicit StepClock(StepTimes& out) : out_(out) {}
  void on_step(const solvent::StepInfo& info, std::span<const double> u,
               std::span<const solvent::Observable>) override {
    const auto now = std::chrono::steady_clock::now();
    if (info.step > 0) out_.seconds.push_back(std::chrono::duration<double>(now - last_).count());
    if (info.step == 1) out_.state_after_first_step.assign(u.begin(), u.end());
    last_ = std::chrono::steady_clock::now();  // the copy above is not part of the next step
  }

 private:
  StepTimes& out_;
  std::chrono::steady_clock::time_point last_;
};
}  // namespace

StepTimes time_steps(const Backend& backend, std::int64_t m, std::int64_t steps) {
  auto model = solvent::plugins::make_model("angiogenesis-1d", {{"M", m}});
  auto integrator =
      solvent::plugins::make_integrator("imex-trapezoid", {{"dt", 0.01}, {"steps", steps}});
  auto solver = solvent::plugins::make_linear_solver(backend.solver, backend.settings);
  solvent::SolverPolicy policy;
  policy.verify_residual = backend.verify_residual;
  solver->set_policy(policy);
  StepTimes out;
  StepClock clock(out);
  solvent::PhaseTimer timer;
  solvent::RunContext ctx;
  ctx.observer = &clock;
  ctx.timer = &timer;
  ctx.seed = 42;
  integrator->run(*model, solver.get(), ctx);
  for (const auto& [k, v] : integrator->facts())
    if (k == "operator_form") out.operator_form = v;
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace imex_bench
