#include "sweep/batched_groups.hpp"

#include "config/config_validation.hpp"
#include "loader/plugin_library.hpp"
#include "log/logging.hpp"
#include "run/combination.hpp"
#include "run/run_driver.hpp"

#include <solvent/ensemble.hpp>
#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

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

}  // namespace

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
                                 MemberExecutor& processes)
    : plan_(plan), members_dir_(std::move(members_dir)), processes_(processes) {}

std::vector<std::size_t> BatchedExecutor::start(std::span<const std::size_t> candidates) {
  std::map<std::string, std::vector<std::size_t>> groups;
  for (const auto member : candidates)
    if (tried_.insert(member).second) groups[group_key(plan_, member)].push_back(member);
  std::vector<std::size_t> started;
  for (const auto& [key, members] : groups)
    for (std::size_t first = 0; first < members.size(); first += max_batch) {
      const std::vector<std::size_t> group(
          members.begin() + std::ptrdiff_t(first),
          members.begin() + std::ptrdiff_t(std::min(members.size(), first + max_batch)));
      if (group.size() > 1 && run_batch(group))
        started.insert(started.end(), group.begin(), group.end());
    }
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
// that cannot be made or run falls back to its members one by one, and a member that
// diverged inside the batch is recorded as failed while the others complete.
bool BatchedExecutor::run_batch(const std::vector<std::size_t>& group) {
  auto log = core_logger();
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<Member>> members;
  std::shared_ptr<Integrator> integrator;
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
    try {
      first.result = integrator->run(*first.plugins.model, nullptr, first.context);
    } catch (const DivergenceError& e) {
      first.failure = e.what();
    }
    for (std::size_t b = 1; b < members.size(); ++b) {
      members[b]->result = ensemble->others[b - 1].result;
      members[b]->failure = ensemble->others[b - 1].failure;
    }
  } catch (const Error& e) {
    log->warn("sweep members {} run one by one: the batch by '{}' failed: {}",
              fmt::join(group, ", "), plan_.batch, e.what());
    return false;
  }
  log->info("sweep members {} advanced together by '{}' in {:.3g} s", fmt::join(group, ", "),
            plan_.batch,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());

  for (const auto& m : members) {
    const auto member_start = std::chrono::steady_clock::now();
    RunOptions opt;
    opt.config = plan_.file;
    opt.overrides = plan_.overrides;
    opt.document = [this, index = m->index] { return member_document(plan_, index); };
    opt.output_dir = member_dir(members_dir_, m->index);
    opt.overwrite = true;
    opt.progress = ProgressMode::Never;
    opt.argv = {"solvent",
                "run",
                plan_.file.string(),
                "--sweep-member",
                std::to_string(m->index),
                "--output",
                opt.output_dir->string(),
                "--overwrite",
                "--no-progress",
                fmt::format("(advanced in a batch by {})", plan_.batch)};
    // The member's own run, its integrator's steps replaced by those the batch recorded.
    auto replay = [&](Integrator&, Model&, LinearSolver*, RunContext& ctx) {
      ctx.observer->on_start(m->recorder.layout);
      for (const auto& s : m->recorder.steps) ctx.observer->on_step(s.info, s.u, s.observables);
      if (!m->failure.empty()) throw DivergenceError(m->failure);
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
  return true;
}

}  // namespace solvent
