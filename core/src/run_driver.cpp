#include "run_driver.hpp"

#include "config_validation.hpp"
#include "csv_observer.hpp"
#include "fallback_linear_solver.hpp"
#include "logging.hpp"
#include "progress_line.hpp"
#include "run_record.hpp"

#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unistd.h>
#include <chrono>
#include <sstream>

namespace solvent {

namespace fs = std::filesystem;

namespace {

class ObserverFanOut : public Observer {
 public:
  ObserverFanOut(Observer& a, Observer& b) : a_(a), b_(b) {}
  void on_start(const FieldLayout& l) override {
    a_.on_start(l);
    b_.on_start(l);
  }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    a_.on_step(i, u, o);
    b_.on_step(i, u, o);
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    a_.on_solution(x, s, o);
    b_.on_solution(x, s, o);
  }

 private:
  Observer& a_;
  Observer& b_;
};

fs::path choose_output_dir(const RunOptions& opt, const ResolvedConfig& cfg) {
  if (opt.resume) return *opt.resume;
  if (opt.output_dir) return *opt.output_dir;
  const auto& dir = cfg.output.string("directory");
  return dir.empty() ? fs::path("out") / cfg.run.string("name") : fs::path(dir);
}

// An earlier run's results are never silently overwritten.
void prepare_output_dir(const fs::path& dir, const RunOptions& opt) {
  if (!opt.resume && fs::exists(dir / "record.toml") && !opt.overwrite)
    throw Error(fmt::format(
        "output directory {} already holds a run (record.toml); choose another with --output "
        "or replace it with --overwrite",
        dir.string()));
  if (opt.overwrite && !opt.resume && fs::exists(dir / "record.toml")) {
    for (const auto& name : {"observables.csv", "solution.csv", "unconverged_iterate.csv",
                             "residual_history.csv", "record.toml", "config.toml"})
      fs::remove(dir / name);
    fs::remove_all(dir / "profiles");
  }
  fs::create_directories(dir);
}

PluginContext context_for(const ResolvedRole& r) { return PluginContext{r.params, core_logger()}; }

}  // namespace

RunSummary run_experiment(const RunOptions& opt) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto log = core_logger();
  fs::path config = opt.config;
  if (config.empty() && opt.resume) config = *opt.resume / "config.toml";
  auto cfg = resolve_config(load_config_document(config, opt.overrides));

  RunSummary summary;
  summary.output_dir = choose_output_dir(opt, cfg);
  summary.model = cfg.model->plugin->descriptor->name;
  summary.integrator = cfg.integrator->plugin->descriptor->name;
  prepare_output_dir(summary.output_dir, opt);

  std::ostringstream resolved;
  resolved << "# Resolved configuration (defaults filled in) of this run.\n"
           << cfg.to_toml() << '\n';
  if (!opt.resume) write_file_atomic(summary.output_dir / "config.toml", resolved.str());

  RunRecord record(summary.output_dir, cfg, opt.argv);
  record.write();

  CsvObserver csv(summary.output_dir, cfg.output, opt.resume.has_value());
  const bool tty = isatty(fileno(stderr)) != 0;
  ProgressLine progress(opt.progress == ProgressMode::Always ||
                        (opt.progress == ProgressMode::Auto && tty));
  ObserverFanOut observer(csv, progress);
  PhaseTimer timer;
  RunContext ctx;
  ctx.output_dir = summary.output_dir;
  ctx.seed = static_cast<std::uint64_t>(cfg.run.integer("seed"));
  ctx.resume_from = opt.resume;
  ctx.observer = &observer;
  ctx.timer = &timer;
  ctx.log = log.get();

  std::shared_ptr<Model> model;
  std::shared_ptr<Integrator> integrator;
  std::shared_ptr<LinearSolver> solver;
  RunResult result;
  auto finish_record = [&](const std::string& status, const std::string& message) {
    csv.finish();
    if (model) record.add_facts("model", model->facts());
    if (integrator) record.add_facts("integrator", integrator->facts());
    if (solver) record.add_facts("linear_solver", solver->facts());
    // After a failure the integrator returned nothing: the observer knows how far it got.
    const bool failed = status != "completed";
    record.set_result(failed ? csv.last_step().step : result.steps,
                      failed ? csv.last_step().t : result.t, csv.solve_stats(),
                      csv.last_observables());
    record.set_timings(
        timer.seconds(),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
    record.set_outcome(status, message);
    record.write();
  };
  try {
    {
      auto scope = timer.measure("setup");
      model = create_model(*cfg.model->plugin, context_for(*cfg.model));
      integrator = create_integrator(*cfg.integrator->plugin, context_for(*cfg.integrator));
      std::string why;
      if (!integrator->accepts(*model, why))
        throw PluginError(fmt::format("integrator '{}' cannot advance model '{}': {}",
                                      summary.integrator, summary.model, why));
      if (integrator->needs_linear_solver()) {
        if (!cfg.linear_solver)
          throw ConfigError({fmt::format("{}: integrator '{}' needs a [linear_solver] section",
                                         cfg.file.string(), summary.integrator)});
        summary.linear_solver = cfg.linear_solver->plugin->descriptor->name;
        auto primary =
            create_linear_solver(*cfg.linear_solver->plugin, context_for(*cfg.linear_solver));
        FallbackLinearSolver::Factory fallback;
        if (cfg.fallback_solver)
          fallback = [&] {
            return create_linear_solver(*cfg.fallback_solver->plugin,
                                        context_for(*cfg.fallback_solver));
          };
        solver = std::make_shared<FallbackLinearSolver>(
            std::move(primary), std::move(fallback), [&](const std::string& why_switch) {
              log->warn("{}; falling back to linear solver '{}'", why_switch, cfg.fallback);
              record.set_solver_in_use(fmt::format("{} (fallback: {})", cfg.fallback, why_switch));
              summary.linear_solver = cfg.fallback + " (fallback)";
            });
      }
    }
    try {
      result = integrator->run(*model, solver.get(), ctx);
    } catch (const UnsupportedOperator& e) {
      throw UnsupportedOperator(
          fmt::format("linear solver '{}' cannot be used by integrator '{}': {}",
                      summary.linear_solver, summary.integrator, e.what()));
    }
  } catch (const Error& e) {
    finish_record("failed", e.what());
    throw;
  } catch (const std::exception& e) {
    finish_record("failed", e.what());
    throw Error(e.what());
  }
  finish_record("completed", "");
  summary.steps = result.steps;
  summary.t = result.t;
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary;
}

}  // namespace solvent
