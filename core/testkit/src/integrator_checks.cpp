// Integrator conformance: the order of accuracy in dt on a small stiff-nonstiff problem
// with a manufactured exact solution.
#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

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
  FieldLayout layout() const override { return {{"a", "b"}, {0.0}}; }
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
  std::vector<Observable> observables(double, std::span<const double>) const override {
    return {};
  }
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

class FinalState : public Observer {
 public:
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable>) override {
    t = info.t;
    state.assign(u.begin(), u.end());
  }
  double t = 0;
  std::vector<double> state;
};

}  // namespace

double measured_time_order(const std::string& integrator, const Settings& s,
                           const std::string& solver) {
  const double t_end = 1.0;
  std::vector<double> errors, dts;
  for (std::int64_t steps : {20, 40, 80, 160}) {
    Settings settings = s;
    settings["dt"] = t_end / double(steps);
    settings["steps"] = steps;
    auto integ = make_integrator(integrator, settings);
    auto lin = make_linear_solver(solver);
    ManufacturedImex model;
    FinalState obs;
    PhaseTimer timer;
    RunContext ctx;
    ctx.observer = &obs;
    ctx.timer = &timer;
    integ->run(model, lin.get(), ctx);
    REQUIRE(obs.state.size() == 2);
    std::vector<double> exact(2);
    model.exact_state(obs.t, exact);
    errors.push_back(std::hypot(obs.state[0] - exact[0], obs.state[1] - exact[1]));
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

}  // namespace solvent::testkit
