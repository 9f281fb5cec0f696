#include "src/imex_stepper.hpp"

#include "src/checkpoint.hpp"
#include "src/implicit_system.hpp"
#include "src/state_checks.hpp"

#include <solvent/io/output.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace solvent::imex {

Schema common_schema() {
  return {
      ParamSpec::real("dt", 0.01, "Time step").above(0.0),
      ParamSpec::integer("steps", 100, "Number of time steps").at_least(1),
      ParamSpec::boolean(
          "projection", true,
          "Apply the model's projection after each step (angiogenesis-1d: negative densities "
          "set to zero, De Luca 2025's non-negativity projection; models without one: no effect)"),
      ParamSpec::real("projection_limit", 1e-3,
                      "largest share of the state (sum |u|) one projection may remove; "
                      "beyond it the step is unstable and the run stops (exit 6). The "
                      "share of every step is the observable 'projected'")
          .at_least(0.0),
  };
}

Schema stepper_schema() {
  Schema s = common_schema();
  // As explicit-stencil3d's key and default: the same for every integrator that continues a run.
  s.push_back(ParamSpec::integer("checkpoint_every", 0,
                                 "write checkpoint.bin every this many steps (0: only at the "
                                 "end); `solvent run --resume` continues from the last one")
                  .at_least(0));
  return s;
}

Schema crank_nicolson_schema() {
  Schema s = stepper_schema();
  s.push_back(ParamSpec::integer(
                  "rannacher_steps", 0,
                  "first steps taken as two backward-Euler half steps each (Rannacher's start): "
                  "damps the stiff modes of a rough initial state, which Crank-Nicolson alone "
                  "leaves ringing when dt/2 max|Lin_ii| > 1; 0 is De Luca 2025's scheme")
                  .at_least(0));
  return s;
}

ImexIntegrator::ImexIntegrator(const PluginContext& ctx, ExplicitScheme scheme, const char* name)
    : scheme_(scheme),
      name_(name),
      dt_(ctx.params.real("dt")),
      steps_(ctx.params.integer("steps")),
      checkpoint_every_(ctx.params.integer("checkpoint_every")),
      rannacher_steps_(ctx.params.has("rannacher_steps") ? ctx.params.integer("rannacher_steps")
                                                         : 0),
      projection_(ctx.params.boolean("projection")),
      projection_limit_(ctx.params.real("projection_limit")) {}

std::optional<OperatorForm> ImexLoop::system_form(Model&) const {
  return OperatorForm{OperatorKind::Csr, ScalarKind::Real};
}

std::optional<std::int64_t> ImexLoop::checkpoint_step(
    const std::filesystem::path& dir) const {
  return solvent::checkpoint_step(dir / checkpoint_name);
}

bool ImexLoop::accepts(Model& model, std::string& why) const {
  if (model.imex() != nullptr) return true;
  why = "the model is not an IMEX problem (u_t = Lin u + N(u, t))";
  return false;
}

namespace {

// The stiffest decay rate of Lin times dt/2 (Crank–Nicolson's diffusion number: its
// amplification factor tends to -1 as this grows), and how much of the initial state lies in
// those stiff modes: dt/2 |Lin u0|_inf against |u0|_inf (a step in u0 gives dC/h^2 there).
void warn_if_ringing(const ImplicitSystem& system, std::span<const double> u0, double dt,
                     const char* name, spdlog::logger* log) {
  if (log == nullptr) return;
  const auto& lin = system.lin();
  double stiffness = 0.0, lu_max = 0.0, u_max = 0.0;
  for (std::size_t i = 0; i < lin.rows; ++i) {
    double lu = 0.0;
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k) {
      lu += lin.values[k] * u0[std::size_t(lin.col_idx[k])];
      if (std::size_t(lin.col_idx[k]) == i) stiffness = std::max(stiffness, -lin.values[k]);
    }
    lu_max = std::max(lu_max, std::abs(lu));
    u_max = std::max(u_max, std::abs(u0[i]));
  }
  const double number = 0.5 * dt * stiffness;
  if (number > 1.0 && 0.5 * dt * lu_max > u_max)
    log->warn(
        "{}: diffusion number dt/2 max|Lin_ii| = {:.3g} > 1 and the initial state is not smooth: "
        "Crank-Nicolson damps its sharp features hardly at all (the solution rings). Cure: "
        "rannacher_steps = 2 (backward-Euler half steps first) or the L-stable imex-sbdf2",
        name, number);
}

}  // namespace

RunResult ImexIntegrator::run(Model& model, LinearSolver* solver, RunContext& ctx) {
  auto& problem = *model.imex();
  if (solver == nullptr) throw SolverError(fmt::format("{} needs a linear solver", name_));
  const auto layout = problem.layout();
  const std::size_t n = layout.size();
  // What one step hands the next lives in `s` (the checkpoint holds it); the rest is scratch
  // that every step writes before it reads.
  LoopState s = ctx.resume_from ? read_checkpoint(*ctx.resume_from / checkpoint_name, name_, dt_, n)
                                : LoopState(n);
  if (!ctx.resume_from) problem.initial_state(s.u, ctx.seed);
  auto& u = s.u;
  auto& u_before = s.u_before;
  auto& explicit_now = s.explicit_now;
  auto& u_new = s.guess;
  auto& half = s.half;
  std::vector<double> rhs(n), explicit_before(n);

  const bool sbdf2 = scheme_ == ExplicitScheme::Sbdf2;
  std::optional<ImplicitSystem> system;
  {
    auto scope = ctx.timer->measure("assembly");
    system.emplace(problem, *solver);
    // SBDF2 starts with one backward-Euler step (I - dt Lin); the others use I - dt/2 Lin
    // throughout, their Rannacher half steps included. A resumed SBDF2 run sets up dt too
    // and moves to 2 dt / 3 at its first step, as the uninterrupted run's solver did.
    system->use(sbdf2 ? dt_ : 0.5 * dt_);
  }
  // The storage the solver works on: the core converted the CSR system where it had to.
  facts_ = {{"operator_form", std::string(to_string(solver->working_form()->kind))}};
  // The warning is about the initial state; a resumed run has warned already.
  if (!sbdf2 && rannacher_steps_ == 0 && !ctx.resume_from)
    warn_if_ringing(*system, u, dt_, name_, ctx.log);
  if (ctx.resume_from && ctx.log)
    ctx.log->info("{}: continuing from the checkpoint at step {} (t = {:.6g})", name_, s.step,
                  double(s.step) * dt_);

  double& projected = s.projected;  // the share of the state the last projection removed
  auto report = [&](std::int64_t step, double t) {
    auto scope = ctx.timer->measure("output");
    auto obs = problem.observables(t, u);
    if (projection_) obs.push_back({"projected", projected});
    ctx.observer->on_step({step, steps_, t, dt_}, u, obs);
  };
  ctx.observer->on_start(layout);
  // A resumed run reports its checkpoint's step again, as an uninterrupted run reported it:
  // the observer keeps the earlier rows before the first step it is given.
  report(s.step, double(s.step) * dt_);

  RunResult result;
  // One linear solve S x = rhs of step `step`, ending at time t_end, checked.
  auto solve = [&](std::span<double> x, std::int64_t step, double t_end) {
    require_finite(rhs, layout, step, t_end, name_, "the explicit right-hand side");
    {
      auto scope = ctx.timer->measure("solve");
      result.last_solve = system->solve(rhs, x);
    }
    // A non-finite state is named by species and place before the solve's own verdict.
    require_finite(x, layout, step, t_end, name_, "the state");
    if (const auto& st = result.last_solve; !st.converged)
      throw DivergenceError(fmt::format(
          "{}: the linear solve of step {} (t = {:.6g}) did not converge ({}): relative residual "
          "{:.3e} after {} iterations; output up to step {} is kept",
          name_, step, t_end, st.status, st.residual, st.iterations, step - 1));
  };
  for (std::int64_t step = s.step + 1; step <= steps_; ++step) {
    const double t = double(step - 1) * dt_;
    {
      auto scope = ctx.timer->measure("nonlinear");
      std::swap(explicit_before, explicit_now);
      problem.explicit_term(t, u, explicit_now);
    }
    if (step <= rannacher_steps_) {
      // Two backward-Euler half steps, (I - dt/2 Lin) u' = u + dt/2 N: L-stable, so the
      // stiff modes of a rough initial state are damped before Crank–Nicolson takes over.
      for (std::size_t i = 0; i < n; ++i) rhs[i] = u[i] + 0.5 * dt_ * explicit_now[i];
      solve(half, step, t + 0.5 * dt_);
      {
        auto scope = ctx.timer->measure("nonlinear");
        problem.explicit_term(t + 0.5 * dt_, half, u_new);
        for (std::size_t i = 0; i < n; ++i) rhs[i] = half[i] + 0.5 * dt_ * u_new[i];
      }
      solve(u_new, step, t + dt_);
    } else if (sbdf2 && step > 1) {
      // (3 u^{n+1} - 4 u^n + u^{n-1}) / (2 dt) = Lin u^{n+1} + 2 N^n - N^{n-1}.
      system->use(2.0 * dt_ / 3.0);
      for (std::size_t i = 0; i < n; ++i)
        rhs[i] = (4.0 * u[i] - u_before[i]) / 3.0 +
                 2.0 * dt_ / 3.0 * (2.0 * explicit_now[i] - explicit_before[i]);
      solve(u_new, step, t + dt_);
    } else if (sbdf2) {
      for (std::size_t i = 0; i < n; ++i) rhs[i] = u[i] + dt_ * explicit_now[i];
      solve(u_new, step, t + dt_);
    } else {
      {
        auto scope = ctx.timer->measure("nonlinear");
        // CNAB2's 3/2 N^n - 1/2 N^{n-1} goes where N^{n-1} was: nothing reads that after.
        const bool ab2 = scheme_ == ExplicitScheme::AdamsBashforth2 && step > 1;
        if (ab2)
          for (std::size_t i = 0; i < n; ++i)
            explicit_before[i] = 1.5 * explicit_now[i] - 0.5 * explicit_before[i];
        system->explicit_part(u, ab2 ? explicit_before : explicit_now, dt_, rhs);
      }
      solve(u_new, step, t + dt_);
    }
    u_before.swap(u);
    u.swap(u_new);
    if (projection_) {
      const double removed = problem.project(u);
      // Where nothing was removed (+0, as on most steps) the share is +0 whatever the sum,
      // a chain of n dependent additions, so the sum is formed only where it counts.
      if (removed == 0.0 && !std::signbit(removed)) {
        projected = 0.0;
      } else {
        double total = removed;
        for (double v : u) total += std::abs(v);
        projected = total > 0.0 ? removed / total : 0.0;
      }
      // The projection must not make an unstable step look like a finished run.
      if (projected > projection_limit_)
        throw DivergenceError(fmt::format(
            "{}: the projection removed {:.3g} of the state (sum |u|) at step {} (t = {:.6g}), "
            "more than projection_limit = {:g}: the step is unstable — reduce dt. Output up to "
            "step {} is kept.",
            name_, projected, step, double(step) * dt_, projection_limit_, step - 1));
    }
    result.steps = step;
    result.t = double(step) * dt_;
    report(step, result.t);
    // After the step's row and profile: a run stopped between the two writes continues from
    // the step before, whose files the resume writes again, with the same bytes.
    // A run without an output folder (a benchmark's, an embedding program's) has nothing to
    // resume into, and runs sharing the working directory would overwrite one another's file.
    if (!ctx.output_dir.empty() &&
        (step == steps_ || (checkpoint_every_ > 0 && step % checkpoint_every_ == 0))) {
      auto scope = ctx.timer->measure("output");
      s.step = step;
      s.t = result.t;
      write_file_atomic(ctx.output_dir / checkpoint_name, checkpoint_bytes(s, name_, dt_));
    }
  }
  return result;
}

}  // namespace solvent::imex
