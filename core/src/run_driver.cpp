#include "run_driver.hpp"

#include "combination.hpp"
#include "config_validation.hpp"
#include "csv_observer.hpp"
#include "fallback_linear_solver.hpp"
#include "plugin_library.hpp"
#include "logging.hpp"
#include "output_manifest.hpp"
#include "progress_line.hpp"
#include "run_record.hpp"
#include "state_guard.hpp"

#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <cmath>
#include <optional>
#include <sstream>
#include <variant>

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

// Where the model knows its exact solution, the error of every reported state or solution,
// computed here so that every model with an exact solution gets the same two numbers:
// exact_error_max = max_i |u_i - exact_i| and exact_error_rel_l2 = ||u - exact|| / ||exact||.
class ExactErrorObserver : public Observer {
 public:
  ExactErrorObserver(Model& model, Observer& next) : model_(model), next_(next) {}
  void on_start(const FieldLayout& l) override { next_.on_start(l); }
  void on_step(const StepInfo& i, std::span<const double> u,
               std::span<const Observable> o) override {
    ImexProblem* p = model_.imex();
    exact_.resize(u.size());
    if (p == nullptr || !p->exact_state(i.t, exact_)) return next_.on_step(i, u, o);
    next_.on_step(i, u, with_errors(o, std::span<const double>(u), std::span<const double>(exact_)));
  }
  void on_solution(const Vector& x, const SolveStats& s, std::span<const Observable> o) override {
    LinearProblem* p = model_.linear();
    const auto exact = p ? p->exact_solution() : std::nullopt;
    if (!exact || exact->index() != x.index()) return next_.on_solution(x, s, o);
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          const auto& e = std::get<V>(*exact);
          next_.on_solution(x, s, with_errors(o, std::span(v.data(), v.size()),
                                              std::span(e.data(), e.size())));
        },
        x);
  }

 private:
  template <class T>
  static std::vector<Observable> with_errors(std::span<const Observable> o, std::span<const T> u,
                                             std::span<const T> exact) {
    double max = 0, d2 = 0, e2 = 0;
    for (std::size_t i = 0; i < u.size() && i < exact.size(); ++i) {
      const double d = std::abs(u[i] - exact[i]);
      max = std::max(max, d);
      d2 += d * d;
      e2 += std::norm(exact[i]);
    }
    std::vector<Observable> all(o.begin(), o.end());
    all.push_back({"exact_error_max", max});
    all.push_back({"exact_error_rel_l2", e2 > 0 ? std::sqrt(d2 / e2) : std::sqrt(d2)});
    return all;
  }

  Model& model_;
  Observer& next_;
  std::vector<double> exact_;
};

fs::path choose_output_dir(const RunOptions& opt, const ResolvedConfig& cfg) {
  if (opt.resume) return *opt.resume;
  if (opt.output_dir) return *opt.output_dir;
  const auto& dir = cfg.output.string("directory");
  return dir.empty() ? fs::path("out") / cfg.run.string("name") : fs::path(dir);
}

// Solvent writes only into a directory that is new, empty, or marked as its own (the marker
// it leaves in every directory it creates or fills), never over the configuration it reads,
// and never over an earlier run unless told to; --overwrite then removes exactly the files
// the earlier run listed in its record (not a user's file beside them).
void prepare_output_dir(const fs::path& dir, const RunOptions& opt, const fs::path& config) {
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    throw ConfigError({fmt::format("output directory {} is a file, not a directory", dir.string())});
  // Runs made before the marker existed are recognised by their record's first line.
  auto solvent_record = [&] {
    std::ifstream f(dir / "record.toml");
    std::string first;
    return std::getline(f, first) && first.rfind("# Solvent run record", 0) == 0;
  };
  const bool ours = fs::exists(dir / output_marker, ec) || solvent_record();
  const bool empty = !exists || fs::is_empty(dir, ec);
  if (!empty && !ours)
    throw ConfigError({fmt::format(
        "output directory {} holds files Solvent did not write (it has no {} marker); choose "
        "another with --output, or empty it",
        dir.string(), output_marker)});
  if (!config.empty() && fs::exists(dir / "config.toml", ec) &&
      fs::equivalent(config, dir / "config.toml", ec))
    throw ConfigError({fmt::format(
        "{}: the run would replace the configuration it reads with the resolved one; copy it "
        "elsewhere or choose another --output",
        config.string())});
  if (opt.resume) return;
  const fs::path record = dir / "record.toml";
  if (fs::exists(record, ec) && !opt.overwrite)
    throw Error(fmt::format(
        "output directory {} already holds a run (record.toml); choose another with --output "
        "or replace it with --overwrite",
        dir.string()));
  if (fs::exists(record, ec)) {
    toml::table earlier;
    try {
      earlier = toml::parse_file(record.string());
    } catch (const std::exception& e) {
      throw Error(fmt::format("--overwrite: cannot read the earlier run's {}: {}; nothing removed",
                              record.string(), e.what()));
    }
    std::vector<fs::path> listed;
    if (const auto* files = earlier["output"]["files"].as_array())
      for (const auto& f : *files)
        if (const auto name = f.value<std::string>()) {
          const fs::path rel = fs::path(*name).lexically_normal();
          // Only paths inside the directory: a record is a file anyone can edit.
          if (!rel.empty() && !rel.is_absolute() && *rel.begin() != "..") listed.push_back(rel);
        }
    for (const auto& rel : listed) fs::remove(dir / rel, ec);
    // Folders the run made and that held only its files.
    for (const auto& rel : listed)
      for (auto parent = rel.parent_path(); !parent.empty(); parent = parent.parent_path())
        if (fs::is_directory(dir / parent, ec) && fs::is_empty(dir / parent, ec))
          fs::remove(dir / parent, ec);
  }
  fs::create_directories(dir);
  if (!fs::exists(dir / output_marker, ec))
    write_file_atomic(dir / output_marker, "Solvent writes its runs here.\n");
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
  prepare_output_dir(summary.output_dir, opt, opt.resume ? fs::path() : config);

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
  std::shared_ptr<Preconditioner> preconditioner;
  RunResult result;
  auto finish_record = [&](const std::string& status, const std::string& message) {
    csv.finish();
    if (model) record.add_facts("model", model->facts());
    if (integrator) record.add_facts("integrator", integrator->facts());
    if (solver) record.add_facts("linear_solver", solver->facts());
    if (preconditioner) record.add_facts("preconditioner", preconditioner->facts());
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
      auto plugins = create_plugins(cfg);
      model = plugins.model;
      integrator = plugins.integrator;
      preconditioner = plugins.preconditioner;
      if (auto problems = combination_problems(cfg, plugins); !problems.empty())
        throw ConfigError(std::move(problems));
      for (const auto& note : combination_notes(cfg, plugins)) log->warn("{}", note);
      if (plugins.linear_solver && !plugins.linear_solver->uses_preconditioner())
        preconditioner.reset();
      if (const auto layout = model->linear() ? model->linear()->layout() : std::nullopt)
        csv.set_solution_layout(*layout);
      if (plugins.linear_solver) {
        summary.linear_solver = cfg.linear_solver->plugin->descriptor->name;
        SolverPolicy policy;
        policy.conversion.max_bytes =
            std::size_t(cfg.solver_core.real("max_conversion_mib") * double(1 << 20));
        policy.verify_residual = cfg.solver_core.boolean("verify_residual");
        policy.on_conversion = [&](const std::string& what) {
          log->info("operator converted for linear solver '{}': {}", summary.linear_solver, what);
          record.add_conversion(what);
        };
        plugins.linear_solver->set_policy(policy);
        plugins.linear_solver->set_preconditioner(preconditioner);
        FallbackLinearSolver::Factory fallback;
        if (cfg.fallback_solver)
          fallback = [&, policy] {
            auto s = create_linear_solver(*cfg.fallback_solver->plugin,
                                          context_for(*cfg.fallback_solver));
            s->set_policy(policy);
            if (preconditioner && s->uses_preconditioner())
              log->warn("the fallback linear solver runs without the preconditioner");
            return s;
          };
        solver = std::make_shared<FallbackLinearSolver>(
            std::move(plugins.linear_solver), std::move(fallback),
            [&](const std::string& why_switch) {
              log->warn("{}; falling back to linear solver '{}'", why_switch, cfg.fallback);
              record.set_solver_in_use(fmt::format("{} (fallback: {})", cfg.fallback, why_switch));
              summary.linear_solver = cfg.fallback + " (fallback)";
            });
        solver->set_policy(policy);
      }
    }
    ExactErrorObserver with_errors(*model, observer);
    StateGuard guard(*model, with_errors);
    ctx.observer = &guard;
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
  } catch (...) {
    // Plugin code may throw anything (`throw 42`): the record must still say how it ended.
    const std::string what = "a plugin threw an exception that is not a std::exception";
    finish_record("failed", what);
    throw Error(what);
  }
  finish_record("completed", "");
  summary.steps = result.steps;
  summary.t = result.t;
  summary.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return summary;
}

}  // namespace solvent
