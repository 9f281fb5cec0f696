#include "src/ark_stepper.hpp"

#include "src/checkpoint.hpp"
#include "src/implicit_system.hpp"
#include "src/state_checks.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace solvent::imex {

namespace {

// ARK3(2)4L[2]SA, Kennedy and Carpenter, Appl. Numer. Math. 44 (2003) 139-181: the explicit
// and the implicit (ESDIRK, explicit first stage, diagonal gamma) tables share c, b and the
// embedding d. The implicit method is stiffly accurate and L-stable, so the stiff modes of a
// rough state are damped in one step, where Crank–Nicolson leaves them ringing.
constexpr int stages = 4;
constexpr double gamma_ = 0.435866521508459;
constexpr std::array<std::array<double, stages>, stages> a_explicit = {{
    {0, 0, 0, 0},
    {0.87173304301691801, 0, 0, 0},
    {0.52758901197630037, 0.072410988023699593, 0, 0},
    {0.39909600767607012, -0.43755765461351942, 1.0384616469374492, 0},
}};
constexpr std::array<std::array<double, stages>, stages> a_implicit = {{
    {0, 0, 0, 0},
    {gamma_, gamma_, 0, 0},
    {0.25764824606642722, -0.093514767574886248, gamma_, 0},
    {0.18764102434672383, -0.59529747357695495, 0.97178992772177208, gamma_},
}};
constexpr std::array<double, stages> c = {0, 0.87173304301691801, 0.6, 1};
constexpr std::array<double, stages> b = {0.18764102434672383, -0.59529747357695495,
                                          0.97178992772177208, gamma_};
constexpr std::array<double, stages> d = {0.21474028622338914, -0.4851622638849391,
                                          0.86872500252038753, 0.40169697514116243};
// The local error of the embedded (second-order) solution falls as h^3.
constexpr double error_order = 3.0;
// The PI controller's exponents (Gustafsson's, as ARKODE's PI default): the new step is
// h safety e_n^(-k1/3) e_{n-1}^(k2/3).
constexpr double k1 = 0.8, k2 = 0.31;
// A proposed growth between 1 and this keeps the step: the direct solvers then keep their
// factorisation (ARKODE's fixed-step bounds [1, 1.5]).
constexpr double hold_up_to = 1.5;
// A stop less than this share of a step beyond the step is reached by stretching the step
// to it, rather than by a sliver step after it.
constexpr double stretch = 1.1;

// The controller's numbers a checkpoint keeps, in LoopState::scalars.
enum Scalar {
  HNext,        // the step the next attempt takes (before clipping to a stop)
  ErrorBefore,  // e_{n-1}, the error of the accepted step before
  AfterReject,  // 1 where the last attempt was rejected
  LastStep,     // the step that led to the reported state (an observable)
  LastError,    // its error estimate (an observable)
  Rejected,     // attempts rejected for their error
  Failed,       // attempts rejected for a non-finite stage, a solve, or the projection
  StepMin,      // the smallest and largest accepted steps
  StepMax,
  RhsEvaluations,  // N(u, t) evaluations
  Solves,          // linear solves
  Setups,          // attempts whose step differs from the attempt before: the solver's
                   // set-ups (factorisations for a direct solver) of an uninterrupted run
  LastAttempt,     // the step of the last attempt
  ScalarCount
};

// sqrt(mean((e_i / (rtol max(|u_i|, |v_i|) + atol))^2)): the step's error against what the
// tolerances allow at either end of it; non-finite where e is.
double weighted_rms(std::span<const double> e, std::span<const double> u, std::span<const double> v,
                    double rtol, double atol) {
  double sum = 0.0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double w = e[i] / (rtol * std::max(std::abs(u[i]), std::abs(v[i])) + atol);
    sum += w * w;
  }
  return std::sqrt(sum / double(std::max<std::size_t>(e.size(), 1)));
}

}  // namespace

Schema ark_schema() {
  Schema s = stepper_schema();
  for (auto& p : s) {
    if (p.name == "dt")
      p = ParamSpec::real("dt", 0.01,
                          "the interval between the times the steps land on exactly (each "
                          "k dt, every accepted step reported); adaptive = false: the step")
              .above(0.0);
    if (p.name == "steps")
      p = ParamSpec::integer("steps", 100, "number of dt intervals: the run ends at steps * dt")
              .at_least(1);
    if (p.name == "checkpoint_every")
      p = ParamSpec::integer("checkpoint_every", 0,
                             "write checkpoint.bin every this many accepted steps (0: only at "
                             "the end); `solvent run --resume` continues from the last one")
              .at_least(0);
  }
  s.push_back(ParamSpec::boolean(
      "adaptive", true,
      "choose each step from the embedded error estimate; false: steps of dt, no control"));
  s.push_back(ParamSpec::real("rtol", 1e-4, "relative tolerance of the local error").above(0.0));
  s.push_back(ParamSpec::real("atol", 1e-8, "absolute tolerance of the local error").above(0.0));
  s.push_back(ParamSpec::real("first_dt", 0.0,
                              "the first step tried; 0: estimated from the initial state "
                              "(0.01 |u0| / |u0'| in the weighted norm, at most dt)")
                  .at_least(0.0));
  s.push_back(
      ParamSpec::real("safety", 0.9, "the controller's safety factor").above(0.0).at_most(1.0));
  s.push_back(ParamSpec::real("max_growth", 10.0, "largest factor a step may grow by").above(1.0));
  s.push_back(ParamSpec::real("min_shrink", 0.2, "smallest factor a step may shrink by")
                  .above(0.0)
                  .below(1.0));
  s.push_back(ParamSpec::integer("max_steps", 1000000,
                                 "attempts (accepted and rejected) after which the run stops "
                                 "(exit 6): a tolerance the problem cannot meet never hangs")
                  .at_least(1));
  return s;
}

ArkIntegrator::ArkIntegrator(const PluginContext& ctx, const char* name)
    : name_(name),
      set_{ctx.params.boolean("adaptive"),
           ctx.params.real("dt"),
           ctx.params.integer("steps"),
           ctx.params.real("rtol"),
           ctx.params.real("atol"),
           ctx.params.real("first_dt"),
           ctx.params.real("safety"),
           ctx.params.real("max_growth"),
           ctx.params.real("min_shrink"),
           ctx.params.integer("max_steps"),
           ctx.params.integer("checkpoint_every"),
           ctx.params.boolean("projection"),
           ctx.params.real("projection_limit")} {}

RunResult ArkIntegrator::run(Model& model, LinearSolver* solver, RunContext& ctx) {
  auto& problem = *model.imex();
  if (solver == nullptr) throw SolverError(fmt::format("{} needs a linear solver", name_));
  const auto layout = problem.layout();
  const std::size_t n = layout.size();
  const Settings& p = set_;
  const double t_end = double(p.stops) * p.dt;

  LoopState s = ctx.resume_from ? read_checkpoint(*ctx.resume_from / checkpoint_name, name_, p.dt,
                                                  n, 1, ScalarCount)
                                : LoopState(n, 1, ScalarCount);
  auto& u = s.u;
  auto& x = s.scalars;
  // Stage i's explicit term N(t + c_i h, z_i) and implicit one Lin z_i; stage 0 is the state.
  std::array<std::vector<double>, stages> ne, lz;
  for (int i = 0; i < stages; ++i) ne[i].resize(n), lz[i].resize(n);
  std::vector<double> rhs(n), z(n), u_new(n), err(n);

  std::optional<ImplicitSystem> system;
  {
    auto scope = ctx.timer->measure("assembly");
    system.emplace(problem, *solver);
  }
  facts_ = {};
  double& t = s.t;
  // Stage 0 of the step from the current state: the same for every attempt from it.
  auto first_stage = [&] {
    auto scope = ctx.timer->measure("nonlinear");
    problem.explicit_term(t, u, ne[0]);
    system->apply_lin(u, lz[0]);
    x[RhsEvaluations] += 1;
  };

  if (!ctx.resume_from) {
    problem.initial_state(u, ctx.seed);
    first_stage();
    double h0 = p.first_dt;
    if (!p.adaptive) {
      h0 = p.dt;
    } else if (h0 == 0.0) {
      // Hairer, Norsett and Wanner's first guess: a step over which u moves 1 % of itself.
      for (std::size_t i = 0; i < n; ++i) err[i] = ne[0][i] + lz[0][i];
      const double du = weighted_rms(err, u, u, p.rtol, p.atol);
      const double u0 = weighted_rms(u, u, u, p.rtol, p.atol);
      h0 = (du < 1e-5 || u0 < 1e-5) ? 1e-6 : 0.01 * u0 / du;
    }
    x[HNext] = std::min(h0, p.dt);
    x[ErrorBefore] = 1.0;
    x[AfterReject] = 0.0;
    x[StepMin] = std::numeric_limits<double>::infinity();
  } else {
    first_stage();
    x[RhsEvaluations] -= 1;  // counted when the interrupted run took it
    if (ctx.log)
      ctx.log->info("{}: continuing from the checkpoint at step {} (t = {:.6g})", name_, s.step, t);
  }
  // The storage the solver works on, once it has been set up for the first step.
  auto publish_facts = [&] {
    facts_ = {
        {"operator_form", std::string(to_string(solver->working_form()->kind))},
        {"adaptive", p.adaptive ? "true" : "false"},
        {"accepted_steps", std::to_string(s.step)},
        {"rejected_steps", std::to_string(std::int64_t(x[Rejected]))},
        {"failed_steps", std::to_string(std::int64_t(x[Failed]))},
        {"rhs_evaluations", std::to_string(std::int64_t(x[RhsEvaluations]))},
        {"linear_solves", std::to_string(std::int64_t(x[Solves]))},
        {"solver_setups", std::to_string(std::int64_t(x[Setups]))},
        {"step_min", fmt::format("{:.6g}", x[StepMin])},
        {"step_max", fmt::format("{:.6g}", x[StepMax])},
    };
  };

  double& projected = s.projected;
  auto report = [&](bool last) {
    auto scope = ctx.timer->measure("output");
    auto obs = problem.observables(t, u);
    if (p.projection) obs.push_back({"projected", projected});
    obs.push_back({"step_size", x[LastStep]});
    obs.push_back({"error_estimate", x[LastError]});
    obs.push_back({"rejected_steps", x[Rejected] + x[Failed]});
    // The number of steps is known only once the last is taken.
    ctx.observer->on_step({s.step, last ? s.step : 0, t, x[LastStep]}, u, obs);
  };
  ctx.observer->on_start(layout);
  report(s.step > 0 && t >= t_end);

  RunResult result;
  result.steps = s.step;
  result.t = t;
  std::int64_t attempts = 0;
  try {
    while (t < t_end) {
      // The next stop k dt after t; a step that reaches past it, or nearly, ends on it.
      auto k = std::int64_t(std::floor(t / p.dt)) + 1;
      while (double(k - 1) * p.dt > t) --k;
      while (double(k) * p.dt <= t) ++k;
      const double stop = double(k) * p.dt;
      const double planned = x[HNext];
      const bool lands = !p.adaptive || stop - t <= stretch * planned;
      // Fixed steps keep h = dt (one factorisation), however the times round.
      const double h = !p.adaptive ? p.dt : lands ? stop - t : planned;
      if (++attempts > p.max_steps)
        throw DivergenceError(fmt::format(
            "{}: {} attempted steps (max_steps) did not reach t = {:g} (t = {:.6g}, step {:.3g}): "
            "the tolerances are too tight for this problem, or it is unstable. Output up to step "
            "{} is kept.",
            name_, p.max_steps, t_end, t, h, s.step));
      if (!(h > 1e-14 * std::max(1.0, std::abs(t))))
        throw DivergenceError(fmt::format(
            "{}: the step fell to {:.3g} at t = {:.6g} (step {}): the error control cannot be "
            "met, the state is probably unstable. Output up to step {} is kept.",
            name_, h, t, s.step + 1, s.step));

      // The stages. `failure` names why an attempt is taken again, where it is.
      const char* failure = nullptr;
      SolveStats last_solve;
      {
        auto scope = ctx.timer->measure("assembly");
        system->use(h * gamma_);
      }
      if (h != x[LastAttempt]) x[Setups] += 1;
      x[LastAttempt] = h;
      std::copy(u.begin(), u.end(), z.begin());
      for (int i = 1; i < stages && failure == nullptr; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          double r = u[j];
          for (int l = 0; l < i; ++l)
            r += h * (a_explicit[i][l] * ne[l][j] + a_implicit[i][l] * lz[l][j]);
          rhs[j] = r;
        }
        if (first_non_finite(rhs) != n) {
          failure = "a non-finite stage";
          break;
        }
        {
          // z holds the stage before: a Krylov solver starts from it.
          auto scope = ctx.timer->measure("solve");
          last_solve = system->solve(rhs, z);
          x[Solves] += 1;
        }
        if (!last_solve.converged) {
          failure = "an unconverged linear solve";
          break;
        }
        if (first_non_finite(z) != n) {
          failure = "a non-finite stage";
          break;
        }
        auto scope = ctx.timer->measure("nonlinear");
        problem.explicit_term(t + c[i] * h, z, ne[i]);
        system->apply_lin(z, lz[i]);
        x[RhsEvaluations] += 1;
      }
      double e = std::numeric_limits<double>::infinity();
      if (failure == nullptr) {
        for (std::size_t j = 0; j < n; ++j) {
          double step = 0.0, estimate = 0.0;
          for (int l = 0; l < stages; ++l) {
            const double f = ne[l][j] + lz[l][j];
            step += b[l] * f;
            estimate += (b[l] - d[l]) * f;
          }
          u_new[j] = u[j] + h * step;
          err[j] = h * estimate;
        }
        e = weighted_rms(err, u, u_new, p.rtol, p.atol);
        if (!std::isfinite(e)) failure = "a non-finite stage";
      }
      double removed_share = 0.0;
      if (failure == nullptr && p.projection) {
        const double removed = problem.project(u_new);
        if (!(removed == 0.0 && !std::signbit(removed))) {
          double total = removed;
          for (double v : u_new) total += std::abs(v);
          removed_share = total > 0.0 ? removed / total : 0.0;
        }
        if (removed_share > p.projection_limit) failure = "a projection beyond projection_limit";
      }

      if (!p.adaptive && failure != nullptr) {
        // Fixed steps have no shorter step to try: the verdicts of the fixed-step siblings, a
        // non-finite vector named by species and place first.
        require_finite(rhs, layout, s.step + 1, t + h, name_, "the explicit right-hand side");
        require_finite(z, layout, s.step + 1, t + h, name_, "the state");
        require_finite(u_new, layout, s.step + 1, t + h, name_, "the state");
        if (!last_solve.converged)
          throw DivergenceError(fmt::format(
              "{}: the linear solve of step {} (t = {:.6g}) did not converge ({}): relative "
              "residual {:.3e} after {} iterations; output up to step {} is kept",
              name_, s.step + 1, t + h, last_solve.status, last_solve.residual,
              last_solve.iterations, s.step));
        throw DivergenceError(fmt::format(
            "{}: the projection removed {:.3g} of the state (sum |u|) at step {} (t = {:.6g}), "
            "more than projection_limit = {:g}: the step is unstable — reduce dt. Output up to "
            "step {} is kept.",
            name_, removed_share, s.step + 1, t + h, p.projection_limit, s.step));
      }
      if (p.adaptive && (failure != nullptr || e > 1.0)) {
        // Rejected: the same state again with a shorter step, never longer than this one.
        const double factor =
            failure != nullptr ? p.min_shrink
                               : std::max(p.min_shrink, p.safety * std::pow(e, -1.0 / error_order));
        x[failure != nullptr ? Failed : Rejected] += 1;
        x[HNext] = h * factor;
        x[AfterReject] = 1.0;
        if (ctx.log && failure != nullptr)
          ctx.log->debug("{}: step of {:.3g} at t = {:.6g} rejected for {}", name_, h, t, failure);
        continue;
      }

      // Accepted.
      const double e_floor = std::max(e, 1e-10);  // a zero error would propose an infinite step
      double factor = p.safety * std::pow(e_floor, -k1 / error_order) *
                      std::pow(x[ErrorBefore], k2 / error_order);
      if (s.step == 0 || x[AfterReject] != 0.0)
        factor = p.safety * std::pow(e_floor, -1.0 / error_order);
      factor = std::clamp(factor, p.min_shrink, x[AfterReject] != 0.0 ? 1.0 : p.max_growth);
      if (factor >= 1.0 && factor <= hold_up_to) factor = 1.0;
      // A step clipped to land on a stop does not shrink the plan it was clipped from.
      x[HNext] = p.adaptive ? std::max(h * factor, lands && h < planned ? planned : 0.0) : p.dt;
      x[ErrorBefore] = e_floor;
      x[AfterReject] = 0.0;
      x[LastStep] = h;
      x[LastError] = e;
      x[StepMin] = std::min(x[StepMin], h);
      x[StepMax] = std::max(x[StepMax], h);
      projected = removed_share;
      u.swap(u_new);
      t = lands ? stop : t + h;
      s.step += 1;
      result.steps = s.step;
      result.t = t;
      result.last_solve = last_solve;
      first_stage();
      report(t >= t_end);
      // No output folder, no checkpoint (as imex_stepper.cpp says why).
      if (!ctx.output_dir.empty() &&
          (t >= t_end || (p.checkpoint_every > 0 && s.step % p.checkpoint_every == 0))) {
        auto scope = ctx.timer->measure("output");
        write_file_atomic(ctx.output_dir / checkpoint_name, checkpoint_bytes(s, name_, p.dt));
      }
    }
  } catch (const Error&) {
    if (solver->working_form()) publish_facts();
    throw;
  }
  publish_facts();
  return result;
}

}  // namespace solvent::imex
