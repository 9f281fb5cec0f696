#include "src/steady_integrator.hpp"

#include <fmt/format.h>

namespace solvent::steady {

SteadyIntegrator::SteadyIntegrator(const PluginContext&) {}

std::optional<OperatorForm> SteadyIntegrator::system_form(Model& model) const {
  if (model.linear() == nullptr) return std::nullopt;
  return model.linear()->form();
}

bool SteadyIntegrator::accepts(Model& model, std::string& why) const {
  if (model.linear() != nullptr) return true;
  why = "the model is not a linear problem (A x = b)";
  return false;
}

RunResult SteadyIntegrator::run(Model& model, LinearSolver* solver, RunContext& ctx) {
  auto& problem = *model.linear();
  if (solver == nullptr) throw SolverError("steady needs a linear solver");
  std::shared_ptr<const Operator> a;
  Vector b;
  {
    auto scope = ctx.timer->measure("assembly");
    a = problem.matrix();
    b = problem.rhs();
  }
  Vector x =
      std::visit([](const auto& v) -> Vector { return std::decay_t<decltype(v)>(v.size()); }, b);
  RunResult result;
  {
    // Apart from the core's "setup": a solver's own (a split operator, an upload to the GPU).
    auto scope = ctx.timer->measure("solver_setup");
    solver->setup(a);
  }
  {
    auto scope = ctx.timer->measure("solve");
    result.last_solve = std::visit(
        [&](const auto& rhs) {
          using V = std::decay_t<decltype(rhs)>;
          auto& out = std::get<V>(x);
          return solver->solve(std::span<const typename V::value_type>(rhs),
                               std::span<typename V::value_type>(out));
        },
        b);
  }
  const auto& stats = result.last_solve;
  {
    auto scope = ctx.timer->measure("output");
    const auto obs = problem.observables(x);
    ctx.observer->on_solution(x, stats, obs);
  }
  result.steps = 1;
  if (!stats.converged)
    throw DivergenceError(fmt::format(
        "the linear solve did not converge ({}): relative residual {:.3e} after {} iterations; "
        "the last iterate is in {} and is not a solution",
        stats.status, stats.residual, stats.iterations,
        // Over several ranks each writes its piece of a grid (a sparse system's rows are
        // gathered and written as on one rank); no rank holds the whole grid.
        ctx.comm->size() > 1 && !distributed_rows_of(*a)
            ? "unconverged_iterate.pvti (a piece per rank)"
                             : "unconverged_iterate.csv, or .vti or .vtr on a grid (not written "
                               "with [output] format = \"none\")"));
  return result;
}

}  // namespace solvent::steady
