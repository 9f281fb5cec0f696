#include "sweep/batched_groups.hpp"

#include "config/config_validation.hpp"
#include "loader/plugin_library.hpp"
#include "log/logging.hpp"
#include "record/sha256.hpp"
#include "run/combination.hpp"
#include "run/interruption.hpp"
#include "run/run_driver.hpp"
#include "sweep/sweep_table.hpp"

#include <solvent/ensemble.hpp>
#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <map>
#include <memory>
#include <sstream>

namespace solvent {

namespace fs = std::filesystem;

namespace {

// A batch's memory grows with members x reported steps x state: 64 members of the 1D model
// at M = 400 and 100 steps keep about 80 MB of recorded states.
constexpr std::size_t max_batch = 64;

// Every step a member's batched run reported, to be reported again by its single-run path.
class Recorder : public Observer {
 public:
  struct Step {
    StepInfo info;
    std::vector<double> u;
    std::vector<Observable> observables;
  };
  void on_start(const FieldLayout& l) override { layout = l; }
  void on_step(const StepInfo& info, std::span<const double> u,
               std::span<const Observable> obs) override {
    steps.push_back({info, {u.begin(), u.end()}, {obs.begin(), obs.end()}});
  }
  FieldLayout layout;
  std::vector<Step> steps;
};

struct Member {
  std::size_t index = 0;
  std::optional<ResolvedConfig> cfg;
  PluginSet plugins;
  Recorder recorder;
  PhaseTimer timer;
  RunContext context;
  RunResult result;
  std::string failure;
};

// The values of the member's swept keys outside [model.parameters]: members with the same
// text differ only in their parameters.
std::string group_key(const SweepPlan& plan, std::size_t member) {
  std::string key;
  for (std::size_t k = 0; k < plan.keys.size(); ++k) {
    const auto& path = plan.keys[k].path;
    if (path.size() > 2 && path[0] == "model" && path[1] == "parameters") continue;
    key += plan.keys[k].name + "=" + plan.members[member][k].toml + "\n";
  }
  return key;
}

// The batch integrator's parameters: its schema's keys from the member's [integrator] where
// it has them (dt, steps, ...), else the defaults; nothing when the member sets a key the
// batch integrator lacks (it would not run the member's scheme).
std::optional<Parameters> batch_parameters(const Schema& schema, const Parameters& member,
                                           std::string& why) {
  Parameters p;
  for (const auto& spec : schema) {
    if (member.has(spec.name)) {
      const auto& e = member.entries().at(spec.name);
      p.set(spec.name, e.value, e.origin, e.where);
    } else {
      p.set(spec.name, spec.default_value);
    }
  }
  for (const auto& [name, entry] : member.entries())
    if (entry.origin != Origin::Default &&
        std::none_of(schema.begin(), schema.end(),
                     [&name = name](const auto& s) { return s.name == name; })) {
      why = fmt::format("[integrator] {} has no counterpart in the batch integrator", name);
      return std::nullopt;
    }
  return p;
}

// Why the members of `member` (their integrator) cannot be batched by a batch integrator
// whose schema is `schema`, or nothing. A batch integrator names the single-run integrators
// whose steps it takes in its key `scheme`; members of another integrator (an adaptive one
// whose steps are its own, another scheme) would be advanced by steps that are not theirs.
std::optional<std::string> scheme_problem(const Schema& schema, const std::string& member) {
  for (const auto& spec : schema)
    if (spec.name == "scheme" &&
        std::find(spec.choices.begin(), spec.choices.end(), member) == spec.choices.end())
      return fmt::format("their integrator '{}' is not one the batch takes the steps of ({})",
                         member, fmt::join(spec.choices, ", "));
  return std::nullopt;
}

// The writer of the batch's checkpoint: the batch integrator, the members and a digest of
// their resolved configurations, so that a checkpoint of other members, or of these configured
// otherwise since, is refused.
std::string batch_writer(const SweepPlan& plan, const std::vector<std::size_t>& group) {
  std::ostringstream configurations;
  for (const auto i : group) configurations << resolve_config(member_document(plan, i)).to_toml();
  return fmt::format("{} for sweep members {} (configurations {})", plan.batch,
                     fmt::join(group, ", "), sha256_of(configurations.str()));
}

}  // namespace

fs::path batch_checkpoint_file(const fs::path& members_dir) {
  return members_dir / "batch-checkpoint.bin";
}

std::optional<std::vector<std::size_t>> stopped_batch(const SweepPlan& plan,
                                                      const fs::path& members_dir) {
  const auto file = batch_checkpoint_file(members_dir);
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  const std::string writer = checkpoint_writer(file);
  // The members between the two phrases batch_writer puts around them; the whole writer is
  // compared with this sweep's below, so this reading only has to find valid members.
  const std::string_view lead = " for sweep members ", tail = " (configurations ";
  const auto from = writer.find(lead), to = writer.rfind(tail);
  std::vector<std::size_t> group;
  if (from != std::string::npos && to != std::string::npos && to > from) {
    std::istringstream list(writer.substr(from + lead.size(), to - from - lead.size()));
    for (std::string item; std::getline(list, item, ',');) {
      if (item.starts_with(' ')) item.erase(0, 1);
      std::size_t i = 0;
      const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), i);
      // In order and within the sweep, as a batch lists them; else not this sweep's.
      if (error != std::errc() || end != item.data() + item.size() || i >= plan.members.size() ||
          (!group.empty() && i <= group.back())) {
        group.clear();
        break;
      }
      group.push_back(i);
    }
  }
  if (group.empty())
    throw InputError(fmt::format(
        "{}: a checkpoint of {}, not of a batch of this sweep's members; rerun with --overwrite",
        file.string(), writer));
  if (const auto expected = batch_writer(plan, group); writer != expected)
    throw InputError(fmt::format(
        "{}: a checkpoint of {}, and this sweep's batch of those members is {} (another sweep, "
        "or its members configured otherwise); rerun with --overwrite",
        file.string(), writer, expected));
  return group;
}

std::optional<std::string> batch_problem(const SweepPlan& plan) {
  try {
    const auto cfg = resolve_config(member_document(plan, 0));
    cfg.registry->find(plan.batch, PluginKind::Integrator);
  } catch (const ConfigError& e) {
    return e.problems().empty() ? std::string(e.what()) : e.problems().front();
  } catch (const Error& e) {
    return fmt::format("[sweep] batch = \"{}\": {}", plan.batch, e.what());
  }
  return std::nullopt;
}

BatchedExecutor::BatchedExecutor(const SweepPlan& plan, fs::path members_dir,
                                 MemberExecutor& processes,
                                 std::optional<std::vector<std::size_t>> stopped)
    : plan_(plan),
      members_dir_(std::move(members_dir)),
      processes_(processes),
      stopped_(std::move(stopped)) {}

std::vector<std::size_t> BatchedExecutor::start(std::span<const std::size_t> candidates) {
  std::vector<std::size_t> started;
  auto candidate = [&](std::size_t member) {
    return std::find(candidates.begin(), candidates.end(), member) != candidates.end();
  };
  // The stopped batch first, as it was: its members still to run continue from its
  // checkpoint (its members that failed before it stopped are finished and stay so).
  if (stopped_) {
    const auto group = *std::exchange(stopped_, std::nullopt);
    tried_.insert(group.begin(), group.end());
    if (run_batch(group, true)) {
      std::copy_if(group.begin(), group.end(), std::back_inserter(started), candidate);
    } else {
      // Its members start over as processes: the checkpoint would not be used again.
      std::error_code ec;
      fs::remove(batch_checkpoint_file(members_dir_), ec);
    }
  }
  std::map<std::string, std::vector<std::size_t>> groups;
  for (const auto member : candidates)
    if (tried_.insert(member).second) groups[group_key(plan_, member)].push_back(member);
  for (const auto& [key, members] : groups)
    for (std::size_t first = 0; first < members.size(); first += max_batch) {
      // A signal stops the sweep: nothing more starts.
      if (pending_signal() != 0) return started;
      const std::vector<std::size_t> group(
          members.begin() + std::ptrdiff_t(first),
          members.begin() + std::ptrdiff_t(std::min(members.size(), first + max_batch)));
      if (group.size() > 1 && run_batch(group, false))
        started.insert(started.end(), group.begin(), group.end());
    }
  if (pending_signal() != 0) return started;
  std::vector<std::size_t> rest;
  for (const auto member : candidates)
    if (std::find(started.begin(), started.end(), member) == started.end()) rest.push_back(member);
  for (const auto member : processes_.start(rest)) started.push_back(member);
  return started;
}

std::vector<MemberEnd> BatchedExecutor::poll(std::chrono::milliseconds wait) {
  if (ended_.empty()) return processes_.poll(wait);
  std::vector<MemberEnd> ended(ended_.begin(), ended_.end());
  ended_.clear();
  for (const auto& end : processes_.poll(std::chrono::milliseconds(0))) ended.push_back(end);
  return ended;
}

// Long because it makes, runs and records a whole group under one error ladder: a batch
// that cannot be made or run falls back to its members one by one, a member that diverged
// inside the batch is recorded as failed while the others complete, and a batch stopped by a
// signal records the others as interrupted.
bool BatchedExecutor::run_batch(const std::vector<std::size_t>& group, bool resume) {
  auto log = core_logger();
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Member>> members;
  std::shared_ptr<Integrator> integrator;
  const auto checkpoint_file = batch_checkpoint_file(members_dir_);
  std::optional<std::int64_t> resumed_at;  // the step a continued batch starts from
  bool stopped = false;
  try {
    for (const auto i : group) {
      auto m = std::make_unique<Member>();
      m->index = i;
      m->cfg.emplace(resolve_config(member_document(plan_, i)));
      m->plugins = create_plugins(*m->cfg);
      m->context.seed = static_cast<std::uint64_t>(m->cfg->run.integer("seed"));
      m->context.observer = &m->recorder;
      m->context.timer = &m->timer;
      m->context.log = log.get();
      members.push_back(std::move(m));
    }
    auto& first = *members.front();
    const auto& lib = first.cfg->registry->find(plan_.batch, PluginKind::Integrator);
    if (const auto problem =
            scheme_problem(lib.descriptor->schema(), first.cfg->integrator->type)) {
      log->warn("sweep members {} run one by one: {}", fmt::join(group, ", "), *problem);
      return false;
    }
    std::string why;
    const auto params =
        batch_parameters(lib.descriptor->schema(), first.cfg->integrator->params, why);
    if (!params) {
      log->warn("sweep members {} run one by one: {}", fmt::join(group, ", "), why);
      return false;
    }
    PluginContext context{*params, log};
    integrator = create_integrator(lib, context);
    auto* ensemble = family<EnsembleFamily>(*first.plugins.model);
    if (ensemble == nullptr || !integrator->accepts(*first.plugins.model, why)) {
      log->warn("sweep members {} run one by one: {}", fmt::join(group, ", "),
                ensemble == nullptr ? "their model offers no ensemble" : why);
      return false;
    }
    ensemble->others.clear();
    for (std::size_t b = 1; b < members.size(); ++b)
      ensemble->others.push_back({members[b]->plugins.model.get(), &members[b]->context, {}, {}});
    ensemble->checkpoint = {checkpoint_file, batch_writer(plan_, group), resume,
                            [] { return pending_signal() != 0; }, false};
    if (resume) resumed_at = checkpoint_step(checkpoint_file);
    // Said before the batch, which writes nothing until it ends: the log shows what runs.
    log->info("sweep members {} advancing together by '{}'{}", fmt::join(group, ", "), plan_.batch,
              resumed_at ? fmt::format(" from their checkpoint at step {}", *resumed_at) : "");
    try {
      first.result = integrator->run(*first.plugins.model, nullptr, first.context);
    } catch (const DivergenceError& e) {
      first.failure = e.what();
    }
    for (std::size_t b = 1; b < members.size(); ++b) {
      members[b]->result = ensemble->others[b - 1].result;
      members[b]->failure = ensemble->others[b - 1].failure;
    }
    stopped = ensemble->checkpoint.stopped;
  } catch (const Error& e) {
    log->warn("sweep members {} run one by one: the batch by '{}' failed: {}",
              fmt::join(group, ", "), plan_.batch, e.what());
    return false;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (stopped)
    log->info(
        "sweep members {} stopped together at step {} by '{}' after {:.3g} s; their states "
        "are in {}",
        fmt::join(group, ", "), checkpoint_step(checkpoint_file).value_or(0), plan_.batch, seconds,
        checkpoint_file.string());
  else
    log->info("sweep members {} advanced together by '{}' in {:.3g} s", fmt::join(group, ", "),
              plan_.batch, seconds);

  for (const auto& m : members) {
    const auto member_start = std::chrono::steady_clock::now();
    const auto dir = member_dir(members_dir_, m->index);
    // A member that failed before the batch stopped was recorded then.
    if (resume && member_finished(dir)) continue;
    RunOptions opt;
    opt.config = plan_.file;
    opt.overrides = plan_.overrides;
    opt.document = [this, index = m->index] { return member_document(plan_, index); };
    if (resume) {
      opt.resume = dir;
      opt.resume_step = resumed_at;
    } else {
      opt.output_dir = dir;
      opt.overwrite = true;
    }
    opt.progress = ProgressMode::Never;
    // The member has no checkpoint of its own: the batch's is continued with the sweep.
    opt.continue_with = fmt::format("solvent run --resume {}", members_dir_.parent_path().string());
    opt.argv = {"solvent", "run", plan_.file.string(), "--sweep-member", std::to_string(m->index)};
    if (resume)
      opt.argv.insert(opt.argv.end(), {"--resume", dir.string()});
    else
      opt.argv.insert(opt.argv.end(), {"--output", dir.string(), "--overwrite"});
    opt.argv.insert(opt.argv.end(),
                    {"--no-progress", fmt::format("(advanced in a batch by {})", plan_.batch)});
    // The member's own run, its integrator's steps replaced by those the batch recorded. A
    // signal while they are written cuts none short (the run's observer stops it after the
    // step in flight): the member stops where the batch stopped, as its own run would have.
    auto replay = [&](Integrator&, Model&, LinearSolver*, RunContext& ctx) {
      ctx.observer->on_start(m->recorder.layout);
      for (const auto& s : m->recorder.steps) {
        try {
          ctx.observer->on_step(s.info, s.u, s.observables);
        } catch (const Interrupted&) {
        }
      }
      if (!m->failure.empty()) throw DivergenceError(m->failure);
      if (stopped) {
        const auto& last = m->recorder.steps.back().info;
        throw interrupted_after(pending_signal(), last.step, last.t);
      }
      return m->result;
    };
    int code = 0;
    try {
      run_experiment(opt, replay);
    } catch (const Error& e) {
      code = e.exit_code();
    }
    ended_.push_back(
        {m->index, code,
         std::chrono::duration<double>(std::chrono::steady_clock::now() - member_start).count()});
  }
  // Continued to the end: every member's folder is written, and the states are not needed.
  if (resume && !stopped) {
    std::error_code ec;
    fs::remove(checkpoint_file, ec);
  }
  return true;
}

}  // namespace solvent
