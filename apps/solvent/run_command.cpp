#include "commands.hpp"

#include "config/config_validation.hpp"
#include "log/logging.hpp"
#include "ranks/communicator_world.hpp"
#include "run/combination.hpp"
#include "run/run_check.hpp"
#include "run/run_driver.hpp"
#include "sweep/member_processes.hpp"
#include "sweep/sweep_plan.hpp"
#include "sweep/sweep_runner.hpp"

#include <solvent/errors.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <ranges>

namespace solvent::cli {

namespace {
// `--set k=v` and `--set=k=v`, repeatable, shared by run and validate. One value per
// occurrence, so that `--set a.b=1 FILE` leaves FILE to the positional.
void add_set_option(CLI::App& sub, std::vector<std::string>& overrides) {
  sub.add_option("--set", overrides, "override one parameter of FILE; repeatable")
      ->type_name("section.key=value")
      ->allow_extra_args(false);
}
// "grid over k1, a3; fixed by --set: c": what the members vary, and what --set took out.
std::string swept_text(const SweepPlan& plan) {
  const auto names = plan.keys | std::views::transform([](const auto& k) { return k.name; });
  std::string text = plan.keys.empty() ? std::string("no key swept")
                                       : fmt::format("{} over {}", plan.mode, fmt::join(names, ", "));
  if (!plan.fixed.empty()) text += fmt::format("; fixed by --set: {}", fmt::join(plan.fixed, ", "));
  return text;
}

// -q (or --log-level warn and above): no closing summary, only warnings and errors.
bool quiet() { return log_level() > spdlog::level::info; }

// What a run did, beyond "completed": a steady solve's iterations, residual and time; a
// run in time its steps and its last step's solve (all of it is also in record.toml).
void print_outcome(const RunSummary& s) {
  const auto solve_text = [](const SolveStats& st) {
    return fmt::format("{} iteration{}, relative residual {:.3g}, {}", st.iterations,
                       st.iterations == 1 ? "" : "s", st.residual,
                       st.converged ? "converged" : st.status);
  };
  if (s.steady && s.last_solve)
    std::printf("  linear solve: %s, %s\n", solve_text(*s.last_solve).c_str(),
                s.solve_seconds ? fmt::format("{:.3f} s", *s.solve_seconds).c_str()
                                : "not timed");
  else
    std::printf("  %lld step%s to t = %.6g\n", static_cast<long long>(s.steps),
                s.steps == 1 ? "" : "s", s.t);
  if (!s.steady && s.last_solve)
    std::printf("  last step's linear solve: %s (%lld solves in all)\n",
                solve_text(*s.last_solve).c_str(), static_cast<long long>(s.solves));
  std::printf("  in %.3f s; results in %s\n", s.wall_seconds, s.output_dir.c_str());
}

// A sweep exits 0 when every member completed, else 100 + the number of members that
// failed (at most 125): above the single-run codes and below those of signals.
int run_sweep_command(const RunOptions& opt, std::size_t jobs) {
  const auto s = run_sweep(opt, jobs);
  if (world().rank() != 0) return 0;
  const int code = s.failed == 0 ? 0 : 100 + int(std::min<std::size_t>(s.failed, 25));
  if (quiet()) {  // the failures alone: errors are shown at every level but off
    if (log_level() < spdlog::level::off)
      for (const auto& f : s.failures) std::fprintf(stderr, "error: %s\n", f.c_str());
    return code;
  }
  std::printf("sweep completed: %zu members (%s), %zu ran now, %zu failed\n", s.members,
              s.mode.c_str(), s.ran, s.failed);
  if (!s.fixed.empty())
    std::printf("  fixed by --set, so not swept: %s\n", fmt::format("{}", fmt::join(s.fixed, ", ")).c_str());
  for (const auto& f : s.failures) std::printf("  %s\n", f.c_str());
  std::printf("  results in %s; the table: %s\n", s.output_dir.c_str(),
              (s.output_dir / "sweep.csv").c_str());
  return code;
}
}  // namespace

Command add_run_command(CLI::App& app, const Args& argv) {
  auto opt = std::make_shared<RunOptions>();
  opt->argv = argv;
  auto config = std::make_shared<std::string>();
  auto* run = app.add_subcommand(
      "run", "Run the experiment a TOML file describes, or continue a checkpointed one.");
  run->add_option("FILE", *config,
                  "the experiment's TOML file (default with --resume: DIR/config.toml)")
      ->type_name("");
  add_set_option(*run, opt->overrides);
  auto jobs = std::make_shared<std::size_t>(1);
  run->add_option("--jobs", *jobs, "a sweep: run N members at a time, each in its own process")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  // Member N of FILE's [sweep] as a single run, exactly as the sweep runs it. The sweep
  // starts its members with --sweep-member (not in the help), which also ends the member
  // with the sweep's process.
  auto member = std::make_shared<std::optional<std::size_t>>();
  auto from_sweep = std::make_shared<bool>(false);
  run->add_option_function<std::size_t>(
         "--member", [member](std::size_t i) { *member = i; },
         "run member N (from 0, as in sweep.csv) of FILE's [sweep] as a single run")
      ->type_name("N");
  run->add_option_function<std::size_t>(
         "--sweep-member",
         [member, from_sweep](std::size_t i) {
           *member = i;
           *from_sweep = true;
         },
         "")
      ->group("");
  // Given twice, the last one counts, as before CLI11.
  run->add_option_function<std::string>(
         "--output", [opt](const std::string& d) { opt->output_dir = d; },
         "results directory (default: [output] directory, else out/<run name>)")
      ->type_name("DIR")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  run->add_option_function<std::string>(
         "--resume", [opt](const std::string& d) { opt->resume = d; },
         "continue the checkpointed run in DIR, writing there")
      ->type_name("DIR")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  run->add_flag("--overwrite", opt->overwrite, "replace an earlier run in the output directory");
  // Triggered as parsed, so that of --progress and --no-progress the last one given counts.
  // Bare, --progress is "on": a bar on a terminal, lines in a log. A flag whose value comes
  // only after "=", so that `--progress FILE` leaves FILE to the positional.
  const std::string progress_help =
      "auto (default): a bar on a terminal, else nothing; bar: one line redrawn; lines: a plain "
      "line every --progress-every seconds, no carriage returns; off. Bare: a bar on a "
      "terminal, lines otherwise";
  run->add_flag("--progress{on}", progress_help)
      ->type_name("[=auto|bar|lines|off]")
      ->disable_flag_override(false)
      ->check(CLI::IsMember({"auto", "bar", "lines", "off", "on"}))
      ->each([opt](const std::string& m) {
        opt->progress = m == "on"      ? ProgressMode::Always
                        : m == "bar"   ? ProgressMode::Bar
                        : m == "lines" ? ProgressMode::Lines
                        : m == "off"   ? ProgressMode::Never
                                       : ProgressMode::Auto;
      })
      ->trigger_on_parse();
  run->add_option("--progress-every", opt->progress_every,
                  "seconds between progress lines (default 10)")
      ->type_name("SECONDS")
      ->check(CLI::PositiveNumber);
  run->add_flag("--log-per-rank", opt->log_per_rank,
                "a run over ranks: each rank's log also in log.rank-N.txt (log.txt is rank 0's)");
  run->add_flag_callback(
         "--no-progress", [opt] { opt->progress = ProgressMode::Never; }, "--progress=off")
      ->trigger_on_parse();
  return {run, [opt, config, jobs, member, from_sweep] {
            opt->config = *config;
            if (opt->config.empty() && !opt->resume)
              throw ConfigError({"solvent run: which configuration file? (solvent run FILE)"});
            if (*member) {
              // Member N of the file's [sweep], as the sweep that started this process runs it.
              if (*from_sweep) end_with_parent();
              opt->document = [plan = plan_sweep(opt->config, opt->overrides), n = **member] {
                return member_document(plan, n);
              };
            } else if (is_sweep(*opt)) {
              return run_sweep_command(*opt, *jobs);
            }
            if (*jobs > 1)
              throw ConfigError({fmt::format("--jobs {}: runs the members of a sweep, and {} has "
                                             "no [sweep] table",
                                             *jobs, opt->config.string())});
            const auto s = run_experiment(*opt);
            if (world().rank() != 0 || quiet()) return 0;  // rank 0 speaks for the run
            std::printf("run completed: model %s, integrator %s%s%s\n", s.model.c_str(),
                        s.integrator.c_str(), s.linear_solver.empty() ? "" : ", linear solver ",
                        s.linear_solver.c_str());
            print_outcome(s);
            return 0;
          }};
}

Command add_validate_command(CLI::App& app) {
  struct Options {
    std::string file;
    std::vector<std::string> overrides;
  };
  auto opt = std::make_shared<Options>();
  auto* validate = app.add_subcommand(
      "validate", "Check a configuration, its plugins' parameters and whether the plugins fit "
      "together; run nothing.");
  validate->add_option("FILE", opt->file, "the experiment's TOML file")->type_name("")->required();
  add_set_option(*validate, opt->overrides);
  return {validate, [opt] {
            const std::filesystem::path file = opt->file;
            // Rank 0 speaks for the ranks, as in a run.
            if (world().rank() != 0) quiet_terminal(spdlog::level::err);
            RunOptions as_run;
            as_run.config = file;
            as_run.overrides = opt->overrides;
            if (is_sweep(as_run)) {
              const auto plan = agreed_sweep_plan(world(), file, opt->overrides);
              if (world().rank() != 0) return 0;
              std::printf("%s: valid sweep of %zu member%s (%s); every member checked\n",
                          file.c_str(), plan.members.size(),
                          plan.members.size() == 1 ? "" : "s", swept_text(plan).c_str());
              return 0;
            }
            // What run checks before it writes anything, over the ranks of mpirun where
            // validate is started by it (the plugins' rank limits, the model's split).
            CheckedRun checked;
            check_run(
                world(), [&] { return load_config_document(file, opt->overrides); }, checked);
            if (world().rank() != 0) return 0;
            const auto& cfg = *checked.cfg;
            const auto& plugins = checked.plugins;
            for (const auto& note : combination_notes(cfg, plugins))
              std::printf("note: %s\n", note.c_str());
            std::printf("%s: valid (model %s, integrator %s%s%s%s%s)\n", file.c_str(),
                        cfg.model->plugin->descriptor->name,
                        cfg.integrator->plugin->descriptor->name,
                        cfg.linear_solver ? ", linear solver " : "",
                        cfg.linear_solver ? cfg.linear_solver->plugin->descriptor->name : "",
                        cfg.preconditioner ? ", preconditioner " : "",
                        cfg.preconditioner ? cfg.preconditioner->plugin->descriptor->name : "");
            return 0;
          }};
}

}  // namespace solvent::cli
