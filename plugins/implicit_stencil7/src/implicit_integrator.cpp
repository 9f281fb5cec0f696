#include "src/implicit_integrator.hpp"

#include <fmt/format.h>
#include <solvent/io/checkpoint.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace solvent::implicit_stencil7 {

namespace sp = seven_point_grid;

namespace {
// The counts a checkpoint keeps past the state, so that a resumed run's iteration facts are
// the whole run's. Only what an uninterrupted run repeats is kept, so that its checkpoint is
// the same bytes whenever it is run: no wall times (a resumed run's time means are those of
// the layers it took) and no set-up count (a resumed run's are the set-ups it made).
enum Scalar { IterationsTotal, IterationsMax, ScalarCount };
}  // namespace

Schema implicit_schema() {
  return {
      ParamSpec::choice("scheme", "bdf2", {"backward-euler", "bdf2", "crank-nicolson"},
                        "backward-euler: first order, L-stable; bdf2: second order, L-stable, "
                        "its first step backward Euler; crank-nicolson: second order, A-stable "
                        "(stiff modes ring)"),
      ParamSpec::real("dt", 0.01, "Time step").above(0.0),
      ParamSpec::integer("steps", 100, "Number of time steps (layers)").at_least(1),
      ParamSpec::boolean("warm_start", true,
                         "start each layer's solve from the previous layer; false: from zero "
                         "(to measure what the warm start saves)"),
      ParamSpec::integer("checkpoint_every", 0,
                         "write checkpoint.bin (over ranks one file a rank) every this many "
                         "layers (0: only at the end); `solvent run --resume` continues from "
                         "the last one")
          .at_least(0),
  };
}

ImplicitIntegrator::ImplicitIntegrator(const PluginContext& ctx)
    : scheme_(ctx.params.string("scheme") == "backward-euler" ? Scheme::BackwardEuler
              : ctx.params.string("scheme") == "bdf2"         ? Scheme::Bdf2
                                                               : Scheme::CrankNicolson),
      dt_(ctx.params.real("dt")),
      steps_(ctx.params.integer("steps")),
      warm_start_(ctx.params.boolean("warm_start")),
      checkpoint_every_(ctx.params.integer("checkpoint_every")) {}

std::optional<std::int64_t> ImplicitIntegrator::checkpoint_step(
    const std::filesystem::path& dir) const {
  return rank_checkpoint_step(dir);
}

bool ImplicitIntegrator::accepts(Model& model, std::string& why) const {
  if (family<sp::Stencil7EvolutionFamily>(model) != nullptr) return true;
  why = "the model offers no seven-point evolution problem u_t + A u = g(t) (family "
        "stencil7-evolution/1; transport-3d does)";
  return false;
}

std::optional<OperatorForm> ImplicitIntegrator::system_form(Model&) const {
  return OperatorForm{OperatorKind::Stencil7, ScalarKind::Real};
}

RunResult ImplicitIntegrator::run(Model& model, LinearSolver* solver, RunContext& ctx) {
  const auto& problem = *family<sp::Stencil7EvolutionFamily>(model);
  if (solver == nullptr) throw SolverError("implicit-stencil7 needs a linear solver");
  const auto layout = problem.layout();
  const std::size_t n = layout.size();
  const auto a_op = problem.stencil();
  const auto& a = std::get<Stencil7<double>>(*a_op);
  const char* scheme_name = scheme_ == Scheme::BackwardEuler ? "backward-euler"
                            : scheme_ == Scheme::Bdf2        ? "bdf2"
                                                             : "crank-nicolson";
  // What one layer hands the next: u, and for BDF2 u^{n-1} (the warm start is u, and
  // Crank-Nicolson's g^n is the source at the checkpoint's time, formed again).
  const std::size_t kept = scheme_ == Scheme::Bdf2 ? 2 : 1;
  StepperCheckpoint s;
  if (ctx.resume_from) {
    s = read_rank_checkpoint(*ctx.resume_from, *ctx.comm,
                             {"implicit-stencil7", dt_, n, kept, ScalarCount});
  } else {
    s.scalars.assign(ScalarCount, 0.0);
    s.vectors.assign(kept, std::vector<double>(n));
    problem.initial_state(s.vectors[0]);
  }
  std::vector<double>& u = s.vectors[0];
  std::vector<double> spare(kept == 2 ? 0 : n), x(n), rhs(n), g(n), g_before(n), au;
  std::vector<double>& u_before = kept == 2 ? s.vectors[1] : spare;
  const auto size = static_cast<std::ptrdiff_t>(n);
  if (scheme_ == Scheme::CrankNicolson) {
    au.resize(n);
    problem.source(double(s.step) * dt_, g_before);
  }

  double sigma_in_use = 0.0;  // none set up yet
  std::int64_t setups = 0;
  // The solver holds sigma I + A for one sigma; a new sigma (a new dt) sets it up again.
  auto use = [&](double sigma) {
    if (sigma == sigma_in_use) return;
    auto scope = ctx.timer->measure("solver_setup");
    solver->setup(sp::shifted_stencil(a, sigma));
    sigma_in_use = sigma;
    ++setups;
  };

  auto iterations_total = std::int64_t(s.scalars[IterationsTotal]);
  auto iterations_max = std::int64_t(s.scalars[IterationsMax]);
  double solve_seconds_total = 0.0, layer_seconds_total = 0.0;
  auto report = [&](std::int64_t step, double t, std::int64_t iterations, double seconds) {
    auto scope = ctx.timer->measure("output");
    auto obs = problem.observables(t, u);
    obs.push_back({"iterations", double(iterations)});
    obs.push_back({"solve_seconds", seconds});
    ctx.observer->on_step({step, steps_, t, dt_}, u, obs);
  };
  ctx.observer->on_start(layout);
  // A resumed run starts with the layer after its checkpoint: the earlier run wrote the
  // checkpoint's row before the checkpoint, and the observer keeps the rows before the first
  // step it is given (that row's solve time is the earlier run's own).
  if (ctx.resume_from) {
    if (ctx.log)
      ctx.log->info("implicit-stencil7 ({}): continuing from the checkpoint at layer {} "
                    "(t = {:.6g})",
                    scheme_name, s.step, double(s.step) * dt_);
  } else {
    report(0, 0.0, 0, 0.0);
  }

  // An inactive node's row of sigma I + A is u = b (c0 = 0 keeps it out of the domain), so
  // its right-hand side must be 0, not the layer's combination of earlier values: that
  // combination multiplies whatever a solver left there (up to its tolerance; an exact one
  // leaves 0) by 4 / (2 dt), 2000 at dt = 1e-3 with BDF2, layer after layer, and a run with
  // PETSc's GAMG on the basin overflowed within ten layers while every solve converged.
  const auto inactive = [&a](std::size_t i) { return a.c[0][i] == 0.0; };
  RunResult result;
  result.steps = s.step;
  result.t = double(s.step) * dt_;
  using clock = std::chrono::steady_clock;
  const std::int64_t first = s.step + 1;
  for (std::int64_t step = first; step <= steps_; ++step) {
    const auto layer_start = clock::now();
    const double t = double(step) * dt_;
    {
      auto scope = ctx.timer->measure("assembly");
      problem.source(t, g);
      if (scheme_ == Scheme::Bdf2 && step > 1) {
        use(1.5 / dt_);
        const double c = 0.5 / dt_;
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t m = 0; m < size; ++m) {
          const auto i = std::size_t(m);
          rhs[i] = inactive(i) ? 0.0 : c * (4.0 * u[i] - u_before[i]) + g[i];
        }
      } else if (scheme_ == Scheme::CrankNicolson) {
        use(2.0 / dt_);
        apply(*a_op, u, au);
        const double c = 2.0 / dt_;
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t m = 0; m < size; ++m) {
          const auto i = std::size_t(m);
          rhs[i] = inactive(i) ? 0.0 : c * u[i] - au[i] + g_before[i] + g[i];
        }
      } else {
        use(1.0 / dt_);
        const double c = 1.0 / dt_;
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t m = 0; m < size; ++m) {
          const auto i = std::size_t(m);
          rhs[i] = inactive(i) ? 0.0 : c * u[i] + g[i];
        }
      }
      if (warm_start_)
        std::copy(u.begin(), u.end(), x.begin());
      else
        std::fill(x.begin(), x.end(), 0.0);
    }
    const auto solve_start = clock::now();
    {
      auto scope = ctx.timer->measure("solve");
      result.last_solve = solver->solve(std::span<const double>(rhs), std::span<double>(x));
    }
    const double solve_seconds = std::chrono::duration<double>(clock::now() - solve_start).count();
    const auto& st = result.last_solve;
    if (!st.converged)
      throw DivergenceError(fmt::format(
          "implicit-stencil7 ({}): the linear solve of layer {} (t = {:.6g}) did not converge "
          "({}): relative residual {:.3e} after {} iterations; output up to layer {} is kept",
          scheme_name, step, t, st.status, st.residual, st.iterations, step - 1));
    u_before.swap(u);
    u.swap(x);
    g_before.swap(g);
    const double layer_seconds =
        std::chrono::duration<double>(clock::now() - layer_start).count();
    iterations_total += st.iterations;
    iterations_max = std::max(iterations_max, st.iterations);
    solve_seconds_total += solve_seconds;
    layer_seconds_total += layer_seconds;
    result.steps = step;
    result.t = t;
    report(step, t, st.iterations, solve_seconds);
    // After the layer's row, so that the row of a checkpoint's layer is always written. A run
    // without an output folder (a benchmark's) has nothing to resume into.
    if (!ctx.output_dir.empty() &&
        (step == steps_ || (checkpoint_every_ > 0 && step % checkpoint_every_ == 0))) {
      auto scope = ctx.timer->measure("output");
      s.step = step;
      s.t = t;
      s.scalars[IterationsTotal] = double(iterations_total);
      s.scalars[IterationsMax] = double(iterations_max);
      write_rank_checkpoint(ctx.output_dir, *ctx.comm, s, "implicit-stencil7", dt_);
    }
  }
  const double layers = double(steps_);
  // The time means are over the layers this process took (wall times are not checkpointed).
  const double timed = double(std::max<std::int64_t>(steps_ - first + 1, 1));
  facts_ = {{"scheme", scheme_name},
            {"layers", std::to_string(steps_)},
            {"warm_start", warm_start_ ? "true" : "false"},
            {"solver_setups", std::to_string(setups)},
            {"iterations_total", std::to_string(iterations_total)},
            {"iterations_per_layer_mean", fmt::format("{:.6g}", double(iterations_total) / layers)},
            {"iterations_per_layer_max", std::to_string(iterations_max)},
            {"solve_seconds_per_layer_mean", fmt::format("{:.6g}", solve_seconds_total / timed)},
            {"layer_seconds_per_layer_mean", fmt::format("{:.6g}", layer_seconds_total / timed)}};
  if (ctx.log)
    ctx.log->info("implicit-stencil7 ({}): {} layers, {:.4g} iterations and {:.4g} s a layer "
                  "(solve {:.4g} s), {} solver set-ups",
                  scheme_name, steps_, double(iterations_total) / layers,
                  layer_seconds_total / timed, solve_seconds_total / timed, setups);
  return result;
}

}  // namespace solvent::implicit_stencil7
