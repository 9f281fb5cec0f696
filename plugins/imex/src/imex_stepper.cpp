#include "src/imex_stepper.hpp"

#include "src/implicit_system.hpp"
#include "src/state_checks.hpp"

#include <fmt/format.h>

namespace solvent::imex {

Schema common_schema() {
  return {
      std::move(ParamSpec::real("dt", 0.01, "Time step").above(0.0)),
      std::move(ParamSpec::integer("steps", 100, "Number of time steps").at_least(1)),
      ParamSpec::boolean(
          "projection", true,
          "Apply the model's projection after each step (angiogenesis-1d: negative densities "
          "set to zero, the paper's non-negativity projection; models without one: no effect)"),
  };
}

ImexIntegrator::ImexIntegrator(const PluginContext& ctx, ExplicitScheme scheme, const char* name)
    : scheme_(scheme),
      name_(name),
      dt_(ctx.params.real("dt")),
      steps_(ctx.params.integer("steps")),
      projection_(ctx.params.boolean("projection")) {}

std::optional<OperatorForm> ImexIntegrator::system_form(Model&) const {
  return OperatorForm{OperatorKind::Csr, ScalarKind::Real};
}

bool ImexIntegrator::accepts(Model& model, std::string& why) const {
  if (model.imex() != nullptr) return true;
  why = "the model is not an IMEX problem (u_t = Lin u + N(u, t))";
  return false;
}

RunResult ImexIntegrator::run(Model& model, LinearSolver* solver, RunContext& ctx) {
  auto& problem = *model.imex();
  if (solver == nullptr) throw SolverError(fmt::format("{} needs a linear solver", name_));
  const auto layout = problem.layout();
  const std::size_t n = layout.size();
  std::vector<double> u(n), rhs(n), explicit_now(n), explicit_before(n), u_new(n);
  problem.initial_state(u, ctx.seed);

  std::optional<ImplicitSystem> system;
  {
    auto scope = ctx.timer->measure("assembly");
    system.emplace(problem, dt_, *solver);
  }
  // The storage the solver works on: the core converted the CSR system where it had to.
  facts_ = {{"operator_form", std::string(to_string(solver->working_form()->kind))}};

  auto report = [&](std::int64_t step, double t) {
    auto scope = ctx.timer->measure("output");
    const auto obs = problem.observables(t, u);
    ctx.observer->on_step({step, steps_, t, dt_}, u, obs);
  };
  ctx.observer->on_start(layout);
  report(0, 0.0);

  RunResult result;
  for (std::int64_t step = 1; step <= steps_; ++step) {
    const double t = double(step - 1) * dt_;
    {
      auto scope = ctx.timer->measure("nonlinear");
      std::swap(explicit_before, explicit_now);
      problem.explicit_term(t, u, explicit_now);
      system->explicit_half(u, rhs);
      const bool ab2 = scheme_ == ExplicitScheme::AdamsBashforth2 && step > 1;
      for (std::size_t i = 0; i < n; ++i)
        rhs[i] += dt_ * (ab2 ? 1.5 * explicit_now[i] - 0.5 * explicit_before[i] : explicit_now[i]);
    }
    require_finite(rhs, layout, step, t, name_, "the explicit right-hand side");
    {
      auto scope = ctx.timer->measure("solve");
      result.last_solve = system->solve(rhs, u_new);
    }
    // A non-finite state is named by species and place before the solve's own verdict.
    require_finite(u_new, layout, step, t + dt_, name_, "the state");
    if (const auto& st = result.last_solve; !st.converged)
      throw DivergenceError(fmt::format(
          "{}: the linear solve of step {} (t = {:.6g}) did not converge ({}): relative residual "
          "{:.3e} after {} iterations; output up to step {} is kept",
          name_, step, t + dt_, st.status, st.residual, st.iterations, step - 1));
    u.swap(u_new);
    if (projection_) problem.project(u);
    result.steps = step;
    result.t = double(step) * dt_;
    report(step, result.t);
  }
  return result;
}

}  // namespace solvent::imex
