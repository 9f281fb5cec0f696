// Integrator conformance: the order of accuracy in dt on a small stiff-nonstiff problem
// with a manufactured exact solution.
#include <solvent/testkit.hpp>

#include "run/observers.hpp"
#include "run/state_guard.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>

namespace solvent::testkit {

namespace {

// u' = Lin u + N(u, t) with Lin = [[-2, 0], [1, -3]] (block lower triangular, like the
// 1D angiogenesis operator) and N(u, t) = -u^2 + g(t), where g makes
// u(t) = (1 + sin t, cos t) exact. N depends on u, so an explicit treatment of N shows its
// own order.
class ManufacturedImex : public Model, public ImexProblem {
 public:
  ImexProblem* imex() override { return this; }
  FieldLayout layout() const override { return {{"a", "b"}, {{"x", {0.0}}}}; }
  void initial_state(std::span<double> u, std::uint64_t) const override { exact(0.0, u); }
  CsrMatrix<double> linear_operator() const override {
    CsrMatrix<double> l;
    l.rows = l.cols = 2;
    l.row_ptr = {0, 1, 3};
    l.col_idx = {0, 0, 1};
    l.values = {-2.0, 1.0, -3.0};
    return l;
  }
  void explicit_term(double t, std::span<const double> u, std::span<double> out) const override {
    const double a = 1 + std::sin(t), b = std::cos(t);
    const double da = std::cos(t), db = -std::sin(t);
    out[0] = -u[0] * u[0] + (da - (-2 * a) + a * a);
    out[1] = -u[1] * u[1] + (db - (a - 3 * b) + b * b);
  }
  std::vector<Observable> observables(double, std::span<const double>) const override { return {}; }
  bool exact_state(double t, std::span<double> u) const override {
    exact(t, u);
    return true;
  }

 private:
  static void exact(double t, std::span<double> u) {
    u[0] = 1 + std::sin(t);
    u[1] = std::cos(t);
  }
};

// A x = b with a known x: the steady family.
class KnownSystem : public Model, public LinearProblem {
 public:
  LinearProblem* linear() override { return this; }
  std::shared_ptr<const Operator> matrix() const override {
    DenseMatrix<double> a(3, 3);
    a.values = {4, -1, 0, -1, 4, -1, 0, -1, 4};
    return std::make_shared<const Operator>(a);
  }
  Vector rhs() const override { return std::vector<double>{2, 4, 10}; }  // x = (1, 2, 3)
  std::optional<Vector> exact_solution() const override { return std::vector<double>{1, 2, 3}; }
};

// What run_integrator returns: the last state (time steppers) or the solution (steady), with
// the observables reported with it.
class FinalState : public Observer {
 public:
  explicit FinalState(IntegratorRun& run) : run_(run) {}
  void on_step(const StepInfo&, std::span<const double> u,
               std::span<const Observable> observables) override {
    ++run_.states;
    run_.state.assign(u.begin(), u.end());
    run_.observables.assign(observables.begin(), observables.end());
  }
  void on_solution(const Vector& x, const SolveStats&,
                   std::span<const Observable> observables) override {
    run_.solution = x;
    run_.observables.assign(observables.begin(), observables.end());
  }

 private:
  IntegratorRun& run_;
};

}  // namespace

std::optional<double> IntegratorRun::observable(const std::string& name) const {
  for (const auto& o : observables)
    if (o.name == name) return o.value;
  return std::nullopt;
}

IntegratorRun run_integrator(const std::string& integrator, Model& model, const Settings& s,
                             const std::string& solver, const Settings& solver_settings,
                             const std::string& preconditioner,
                             const Settings& preconditioner_settings) {
  auto integ = make_integrator(integrator, s);
  std::shared_ptr<LinearSolver> lin;
  if (integ->needs_linear_solver()) {
    lin = make_linear_solver(solver, solver_settings);
    // As the run driver does: a solver that applies no preconditioner is given none.
    if (!preconditioner.empty() && lin->uses_preconditioner())
      lin->set_preconditioner(make_preconditioner(preconditioner, preconditioner_settings));
  }
  IntegratorRun run;
  // The run driver's observers between the integrator and the caller: every state checked
  // finite and inside the model's ranges (a DivergenceError otherwise, as `solvent run`
  // ends with exit 6), and the error against the model's exact solution added.
  FinalState last(run);
  ExactErrorObserver with_errors(model, last, single_rank());
  StateGuard guard(model, with_errors);
  PhaseTimer timer;
  RunContext ctx;
  ctx.observer = &guard;
  ctx.timer = &timer;
  run.result = integ->run(model, lin.get(), ctx);
  return run;
}

IntegratorRun run_integrator(const std::string& integrator, const std::string& model,
                             const Settings& s, const Settings& model_settings,
                             const std::string& solver, const Settings& solver_settings,
                             const std::string& preconditioner,
                             const Settings& preconditioner_settings) {
  auto m = make_model(model, model_settings);
  return run_integrator(integrator, *m, s, solver, solver_settings, preconditioner,
                        preconditioner_settings);
}

double measured_time_order(const std::string& integrator, const Settings& s,
                           const std::string& solver) {
  const double t_end = 1.0;
  std::vector<double> errors, dts;
  for (std::int64_t steps : {20, 40, 80, 160}) {
    Settings settings = s;
    settings["dt"] = t_end / double(steps);
    settings["steps"] = steps;
    ManufacturedImex model;
    const auto run = run_integrator(integrator, model, settings, solver);
    REQUIRE(run.state.size() == 2);
    std::vector<double> exact(2);
    model.exact_state(run.result.t, exact);
    errors.push_back(std::hypot(run.state[0] - exact[0], run.state[1] - exact[1]));
    dts.push_back(t_end / double(steps));
  }
  // Least-squares slope of log(error) against log(dt).
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    mx += std::log(dts[i]);
    my += std::log(errors[i]);
  }
  mx /= double(errors.size());
  my /= double(errors.size());
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < errors.size(); ++i) {
    sxy += (std::log(dts[i]) - mx) * (std::log(errors[i]) - my);
    sxx += std::pow(std::log(dts[i]) - mx, 2);
  }
  return sxy / sxx;
}

std::vector<std::string> integrator_problems(const std::string& name, const Settings& s,
                                             std::string& skipped) {
  std::vector<std::string> out;
  std::string why;
  auto probe = make_integrator(name, s);
  ManufacturedImex imex;
  KnownSystem system;
  if (probe->accepts(imex, why)) {
    const double order = measured_time_order(name, s);
    if (!(order >= 0.9))
      out.push_back(fmt::format(
          "on u' = Lin u + N(u, t) with a known solution its error falls as dt^{:.2f}: it does "
          "not converge (order below 0.9)",
          order));
    Settings settings = s;
    settings["dt"] = 0.01;
    settings["steps"] = std::int64_t{10};
    const auto run = run_integrator(name, imex, settings);
    if (run.states != 11 || run.result.steps != 10 || std::abs(run.result.t - 0.1) > 1e-12)
      out.push_back(fmt::format(
          "10 steps of dt = 0.01 reported {} states (the initial one included; 11 expected) and "
          "a result of {} steps to t = {}",
          run.states, run.result.steps, run.result.t));
  } else if (probe->accepts(system, why)) {
    const auto run = run_integrator(name, system, s);
    const auto* x = run.solution ? std::get_if<std::vector<double>>(&*run.solution) : nullptr;
    if (!x || x->size() != 3 || std::abs((*x)[0] - 1) > 1e-12 || std::abs((*x)[1] - 2) > 1e-12 ||
        std::abs((*x)[2] - 3) > 1e-12)
      out.push_back("the solution it reported for a 3 x 3 system with solution (1, 2, 3) is wrong");
  } else {
    skipped = fmt::format("advances neither core family (IMEX, linear system): {}", why);
  }
  return out;
}

}  // namespace solvent::testkit
