#include "run/run_driver.hpp"

#include "config/config_validation.hpp"
#include "io/csv_observer.hpp"
#include "io/distributed_solution_writer.hpp"
#include "io/field_series.hpp"
#include "io/output_dir.hpp"
#include "io/output_manifest.hpp"
#include "io/vtk_writer.hpp"
#include "loader/plugin_library.hpp"
#include "log/logging.hpp"
#include "ranks/communicator_world.hpp"
#include "record/resume_check.hpp"
#include "record/run_record.hpp"
#include "record/sha256.hpp"
#include "run/combination.hpp"
#include "run/fallback_linear_solver.hpp"
#include "run/interruption.hpp"
#include "run/observers.hpp"
#include "run/progress_line.hpp"
#include "run/rank_checks.hpp"
#include "run/run_check.hpp"
#include "run/state_guard.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <variant>

namespace solvent {

namespace fs = std::filesystem;

fs::path choose_output_dir(const RunOptions& opt, const ResolvedConfig& cfg) {
  if (opt.resume) return *opt.resume;
  if (opt.output_dir) return *opt.output_dir;
  const auto& dir = cfg.output.string("directory");
  return dir.empty() ? fs::path("out") / cfg.run.string("name") : fs::path(dir);
}

namespace {

// Phase 1, on every rank: every check a run makes before it touches the output folder
// (run/run_check.hpp, the same as `solvent validate`). The plugins are made, and the
// combination checked, before the output directory is touched: a configuration they
// refuse (a size beyond the memory, solvers that do not fit) leaves no folder and no record
// behind to refuse the corrected rerun.
void resolve_and_make_plugins(const RunOptions& opt, const fs::path& config,
                              const Communicator& comm, PhaseTimer& timer, RunSummary& summary,
                              CheckedRun& r) {
  check_run(
      comm,
      [&] { return opt.document ? opt.document() : load_config_document(config, opt.overrides); },
      r, &timer,
      [&](const ResolvedConfig& cfg) {
        summary.output_dir = choose_output_dir(opt, cfg);
        summary.model = cfg.model->plugin->descriptor->name;
        summary.integrator = cfg.integrator->plugin->descriptor->name;
      });
}

// What rank 0 holds open while the run computes (the other ranks hold their own log with
// --log-per-rank, and nothing else).
struct RunOutput {
  std::optional<LogFile> log, rank_log;
  std::optional<OutputDirLock> lock;
  std::optional<RunRecord> record;
  std::optional<CsvObserver> csv;
};

fs::path rank_log_file(const fs::path& dir, int rank) {
  return dir / fmt::format("log.rank-{}.txt", rank);
}

// Phase 2: rank 0 alone prepares the output directory (checking a --resume) and writes the
// core's files; the others wait for it, so that none starts computing into a run that was
// refused.
void open_output(const RunOptions& opt, const fs::path& config, const Communicator& comm,
                 const CheckedRun& r, spdlog::logger& log, const RunSummary& summary,
                 RunOutput& out) {
  const auto& cfg = *r.cfg;
  const auto ranks = describe_ranks(comm);  // every rank takes part
  if (const auto warning = binding_warning(comm); !warning.empty()) log.warn("{}", warning);
  agree_across_ranks(comm, [&] {
    if (comm.rank() != 0) return std::string();
    out.lock.emplace(prepare_output_dir(summary.output_dir, {opt.resume.has_value(), opt.overwrite,
                                                             opt.resume ? fs::path() : config}));
    // From here the run's whole log, the messages before it included, is in its folder.
    out.log.emplace(summary.output_dir / "log.txt", 0, opt.resume.has_value());
    note_written(summary.output_dir / "log.txt");
    if (opt.log_per_rank)
      for (int k = 0; k < comm.size(); ++k) note_written(rank_log_file(summary.output_dir, k));
    const auto resume = opt.resume ? check_resume(summary.output_dir, cfg, r.resolved,
                                                  *r.plugins.integrator, opt.resume_step)
                                   : ResumePlan{};
    if (!opt.resume || resume.extends)
      write_file_atomic(summary.output_dir / "config.toml", r.resolved);
    if (opt.resume)
      log.info("continuing the run in {} ({}) from its checkpoint at step {}{}",
               summary.output_dir.string(), resume.earlier, resume.checkpoint_step,
               resume.extends ? fmt::format(" to step {}", cfg.integrator->params.integer("steps"))
                              : "");
    out.record.emplace(summary.output_dir, cfg, opt.argv, sha256_of(r.resolved));
    out.record->set_ranks(ranks, r.plugins.rank_speeds);
    out.record->write();
    out.csv.emplace(summary.output_dir, cfg.output, opt.resume.has_value());
    return std::string();
  });
  if (opt.log_per_rank)
    agree_across_ranks(comm, [&] {
      out.rank_log.emplace(rank_log_file(summary.output_dir, comm.rank()), comm.rank(),
                           opt.resume.has_value());
      return std::string();
    });
  end_early_messages();
}

// Phase 3 for a run with a linear solver: its policy (conversions, residual check) and
// preconditioner, and the fallback where one is configured.
std::shared_ptr<LinearSolver> wire_linear_solver(
    const ResolvedConfig& cfg, PluginSet& plugins,
    const std::shared_ptr<Preconditioner>& preconditioner, const Communicator& comm,
    spdlog::logger& log, std::optional<RunRecord>& record, RunSummary& summary) {
  summary.linear_solver = cfg.linear_solver->plugin->descriptor->name;
  SolverPolicy policy = solver_policy_of(cfg.solver_core);
  // An integrator that sets its solver up again whenever its step changes (imex-ark23)
  // converts the same way each time: said and recorded once per kind of conversion.
  auto said = std::make_shared<std::set<std::string>>();
  policy.on_conversion = [&log, &record, &summary, said](const std::string& what) {
    if (!said->insert(what).second) return;
    log.info("operator converted for linear solver '{}': {}", summary.linear_solver, what);
    if (record) record->add_conversion(what);
  };
  plugins.linear_solver->set_policy(policy);
  plugins.linear_solver->set_preconditioner(preconditioner);
  // The solver itself where no fallback is configured: the core's contract around its
  // setup and solve checks each solve once.
  if (!cfg.fallback_solver) return std::move(plugins.linear_solver);
  auto fallback = [&cfg, &comm, &log, preconditioner, policy] {
    auto s =
        create_linear_solver(*cfg.fallback_solver->plugin, context_for(*cfg.fallback_solver, comm));
    s->set_policy(policy);
    if (preconditioner && s->uses_preconditioner())
      log.warn("the fallback linear solver runs without the preconditioner");
    return s;
  };
  auto solver = std::make_shared<FallbackLinearSolver>(
      std::move(plugins.linear_solver), std::move(fallback),
      [&cfg, &log, &record, &summary](const std::string& why_switch) {
        log.warn("{}; falling back to linear solver '{}'", why_switch, cfg.fallback);
        if (record)
          record->set_solver_in_use(fmt::format("{} (fallback: {})", cfg.fallback, why_switch));
        summary.linear_solver = cfg.fallback + " (fallback)";
      });
  solver->set_policy(policy);
  return solver;
}

// A configuration problem met during a run: the exit code of one (2), reported as an error
// of the run, whose record holds it.
class ConfigErrorInRun : public Error {
 public:
  using Error::Error;
  int exit_code() const override { return 2; }
};

// How a run ended, for its record: the plugin objects made (null where a failure came
// first), what the integrator returned, the status and message.
struct RunEnd {
  std::array<const PluginObject*, 4> objects;  // model, integrator, linear solver, preconditioner
  const RunResult& result;
  const std::string& status;
  const std::string& message;
};

// The record says how the run ended even when that cannot be fully written: an error in
// finishing after a failure must not replace the failure's own message.
void close_record(RunRecord& record, CsvObserver& csv, const PhaseTimer& timer,
                  std::chrono::steady_clock::time_point wall_start, const RunEnd& end,
                  spdlog::logger& log) {
  std::string closing_error;
  try {
    csv.finish();
  } catch (const Error& e) {
    closing_error = e.what();
  }
  constexpr const char* roles[] = {"model", "integrator", "linear_solver", "preconditioner"};
  for (std::size_t k = 0; k < end.objects.size(); ++k)
    if (end.objects[k]) record.add_facts(roles[k], end.objects[k]->facts());
  // After a failure the integrator returned nothing: the observer knows how far it got.
  const bool completed = end.status == "completed";
  record.set_result(completed ? end.result.steps : csv.last_step().step,
                    completed ? end.result.t : csv.last_step().t, csv.solve_stats(),
                    csv.last_observables());
  record.set_timings(
      timer.seconds(),
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count());
  if (!closing_error.empty() && completed) {
    record.set_outcome("failed", closing_error);
    record.write();
    throw Error(closing_error);
  }
  record.set_outcome(end.status,
                     closing_error.empty() ? end.message : end.message + "; " + closing_error);
  try {
    record.write();
  } catch (const Error& e) {
    if (completed) throw;
    log.error("the record could not be updated: {}", e.what());
  }
}

}  // namespace

// The phases in order: resolve the configuration and make the plugins, open the output,
// wire the solver and chain the observers, execute the integrator, finish the record. Its
// length is the error ladder: each way a run can end is recorded with every object the
// phases before made, in this scope.
RunSummary run_experiment(const RunOptions& opt, const IntegratorCall& call) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto log = core_logger();
  const Communicator& comm = opt.comm != nullptr ? *opt.comm : world();
  const bool root = comm.rank() == 0;
  // Rank 0 speaks for the run; the others say only what fails on them.
  if (!root) quiet_terminal(spdlog::level::err);
  fs::path config = opt.config;
  if (config.empty() && opt.resume) config = *opt.resume / "config.toml";

  // Every rank takes part, before a plugin is made (a model assembles with its threads).
  if (const auto shared = share_host_cores(comm); !shared.empty()) log->info("{}", shared);

  RunSummary summary;
  PhaseTimer timer;
  CheckedRun r;
  resolve_and_make_plugins(opt, config, comm, timer, summary, r);
  const auto& cfg = *r.cfg;
  PluginSet& plugins = r.plugins;

  RunOutput out;
  open_output(opt, config, comm, r, *log, summary, out);
  std::optional<RunRecord>& record = out.record;
  std::optional<CsvObserver>& csv = out.csv;

  ProgressLine progress(root ? opt.progress : ProgressMode::Never, opt.progress_every);
  NullObserver nothing;
  std::optional<ObserverFanOut> fan_out;
  if (root) fan_out.emplace(*csv, progress);
  Observer& observer = root ? static_cast<Observer&>(*fan_out) : nothing;
  RunContext ctx;
  ctx.output_dir = summary.output_dir;
  ctx.seed = static_cast<std::uint64_t>(cfg.run.integer("seed"));
  ctx.resume_from = opt.resume;
  ctx.observer = &observer;
  ctx.timer = &timer;
  ctx.log = log.get();
  ctx.comm = &comm;
  FieldSeries fields(summary.output_dir, cfg.output, comm, opt.resume.has_value());
  // Null with format = "none": an integrator then makes no field to write (a stencil's copy
  // of its fields for the writer is 32 bytes a node, 34 GB at 1024^3).
  ctx.fields = vtk_fields_written(cfg.output) ? &fields : nullptr;

  std::shared_ptr<Model> model = plugins.model;
  std::shared_ptr<Integrator> integrator = plugins.integrator;
  std::shared_ptr<LinearSolver> solver;
  std::shared_ptr<Preconditioner> preconditioner = plugins.preconditioner;
  RunResult result;
  const auto finish_record = [&](const std::string& status, const std::string& message) {
    if (!root) return;
    const RunEnd end{{model.get(), integrator.get(), solver.get(), preconditioner.get()},
                     result,
                     status,
                     message};
    close_record(*record, *csv, timer, wall_start, end, *log);
  };
  SignalScope signals;
  std::optional<FieldLayout> solution_layout;
  try {
    {
      auto scope = timer.measure("setup");
      for (const auto& note : combination_notes(cfg, plugins)) log->warn("{}", note);
      if (plugins.linear_solver && !plugins.linear_solver->uses_preconditioner())
        preconditioner.reset();
      if (model->linear()) solution_layout = model->linear()->layout();
      if (solution_layout && csv) csv->set_solution_layout(*solution_layout);
      if (plugins.linear_solver)
        solver = wire_linear_solver(cfg, plugins, preconditioner, comm, *log, record, summary);
    }
    // A solution held in blocks by several ranks: every rank writes its piece of it.
    std::optional<DistributedSolutionWriter> pieces;
    if (solution_layout && distributed_grid_layout(*solution_layout))
      pieces.emplace(summary.output_dir, *solution_layout, cfg.output, observer, *log);
    // A solution held in rows by several ranks: gathered for rank 0 to write.
    std::optional<GatherRows> gathered;
    if (!pieces && model->linear() && comm.size() > 1)
      if (auto rows = distributed_rows_of(*model->linear()->matrix()))
        gathered.emplace(std::move(rows), observer);
    ExactErrorObserver with_errors(*model,
                                   pieces     ? static_cast<Observer&>(*pieces)
                                   : gathered ? static_cast<Observer&>(*gathered)
                                              : observer,
                                   comm);
    StateGuard guard(*model, with_errors);
    StopOnSignal stop(guard);
    ctx.observer = &stop;
    try {
      result = call ? call(*integrator, *model, solver.get(), ctx)
                    : integrator->run(*model, solver.get(), ctx);
    } catch (const UnsupportedOperator& e) {
      throw UnsupportedOperator(
          fmt::format("linear solver '{}' cannot be used by integrator '{}': {}",
                      summary.linear_solver, summary.integrator, e.what()));
    }
  } catch (const Interrupted& e) {
    const std::string what = fmt::format(
        "{}; outputs up to that step are kept{}", e.what(),
        !opt.continue_with.empty() ? "; continue with: " + opt.continue_with
        : integrator->writes_checkpoints()
            ? fmt::format("; continue with: solvent run --resume {}", summary.output_dir.string())
            : fmt::format(" (integrator '{}' writes no checkpoints: rerun with --overwrite)",
                          summary.integrator));
    finish_record("interrupted", what);
    if (comm.size() > 1) end_all_ranks(comm, e.exit_code(), what);
    throw Interrupted(e.signal(), what);
  } catch (const OtherRankFailed&) {
    // A failure the ranks agreed on (a piece of the solution that could not be written):
    // rank 0 reports it, records it and ends the run; this rank ends quietly.
    throw;
  } catch (const ConfigError& e) {
    // A setting found wrong only once the run met what it limits (the conversion guard):
    // still exit 2, but the run started and has a record, so it is not "nothing was run".
    const std::string what = fmt::format("{}", fmt::join(e.problems(), "; "));
    finish_record("failed", what);
    if (comm.size() > 1) end_all_ranks(comm, e.exit_code(), what);
    throw ConfigErrorInRun(what);
  } catch (const Error& e) {
    finish_record("failed", e.what());
    if (comm.size() > 1) end_all_ranks(comm, e.exit_code(), e.what());
    throw;
  } catch (const std::exception& e) {
    finish_record("failed", e.what());
    if (comm.size() > 1) end_all_ranks(comm, 1, e.what());
    throw Error(e.what());
  } catch (...) {
    // Plugin code may throw anything (`throw 42`): the record must still say how it ended.
    const std::string what = "a plugin threw an exception that is not a std::exception";
    finish_record("failed", what);
    if (comm.size() > 1) end_all_ranks(comm, 1, what);
    throw Error(what);
  }
  finish_record("completed", "");
  // A signal that came during the last step, or during a steady solve, which is not
  // divided into steps: the work is whole and recorded as completed.
  if (const int sig = pending_signal())
    log->warn("{} arrived as the run ended; its results are complete", signal_name(sig));
  summary.steps = result.steps;
  summary.t = result.t;
  summary.steady = model->linear() != nullptr;
  if (solver) {
    summary.last_solve = solver->last_solve();
    summary.solves = solver->solves();
  }
  if (const auto it = timer.seconds().find("solve"); it != timer.seconds().end())
    summary.solve_seconds = it->second;
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary;
}

}  // namespace solvent
