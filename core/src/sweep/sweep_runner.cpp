#include "sweep/sweep_runner.hpp"

#include "io/output_dir.hpp"
#include "log/logging.hpp"
#include "ranks/communicator_world.hpp"
#include "record/run_record.hpp"
#include "record/sha256.hpp"
#include "run/combination.hpp"
#include "run/run_check.hpp"
#include "run/interruption.hpp"
#include "run/progress_line.hpp"
#include "sweep/batched_groups.hpp"
#include "sweep/member_dispatch.hpp"
#include "sweep/sweep_table.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <sstream>

namespace solvent {

namespace fs = std::filesystem;

namespace {

std::optional<toml::table> sweep_record(const fs::path& dir) {
  try {
    auto record = toml::parse_file((dir / "record.toml").string());
    if (record["sweep"].is_table()) return record;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The sweep's file and --set overrides: as given, or, with --resume, as its record says.
std::pair<fs::path, std::vector<std::string>> sweep_source(const RunOptions& opt) {
  if (!opt.resume) return {opt.config, opt.overrides};
  if (!opt.config.empty() || !opt.overrides.empty())
    throw ConfigError(
        {fmt::format("--resume {}: a sweep continues as it was started; give no "
                     "FILE and no --set",
                     opt.resume->string())});
  return recorded_sweep_source(*opt.resume, "--resume " + opt.resume->string(),
                               "rerun with --overwrite");
}

std::string members_text(const std::vector<std::size_t>& members, std::size_t all) {
  if (members.size() == all && all > 1) return "every sweep member";
  return fmt::format("sweep member{} {}", members.size() == 1 ? "" : "s", fmt::join(members, ", "));
}

// record.toml of the sweep: what ran, from which file, with what, and how it ended.
class SweepRecord {
 public:
  SweepRecord(const fs::path& dir, const SweepPlan& plan, const std::string& name,
              const RunOptions& opt, std::size_t jobs, int ranks)
      : dir_(dir), members_(plan.members.size()) {
    toml::array command, overrides, keys;
    for (const auto& a : opt.argv) command.push_back(a);
    for (const auto& o : plan.overrides) overrides.push_back(o);
    for (const auto& k : plan.keys) keys.push_back(k.name);
    table_.insert("run", toml::table{{"name", name},
                                     {"seed", plan.seed},
                                     {"config", fs::absolute(plan.file).string()},
                                     {"config_sha256", sha256_of_file(plan.file)},
                                     {"overrides", std::move(overrides)},
                                     {"pid", std::int64_t(::getpid())},
                                     {"command", std::move(command)},
                                     {"started", utc_now()},
                                     {"status", "running"}});
    insert_provenance(table_);
    table_["host"].as_table()->insert_or_assign("ranks", std::int64_t(ranks));
    table_.insert("sweep", toml::table{{"mode", plan.mode},
                                       {"seed", plan.seed},
                                       {"members", std::int64_t(members_)},
                                       {"jobs", std::int64_t(jobs)},
                                       {"keys", std::move(keys)},
                                       {"table", plan.table}});
  }

  void finish(const std::string& status, std::size_t ok, std::size_t failed) {
    auto& run = *table_["run"].as_table();
    run.insert_or_assign("status", status);
    run.insert_or_assign("finished", utc_now());
    auto& sweep = *table_["sweep"].as_table();
    sweep.insert_or_assign("ok", std::int64_t(ok));
    sweep.insert_or_assign("failed", std::int64_t(failed));
  }

  // Lists every file of the sweep, its members' included (from their records), so that
  // --overwrite removes exactly those.
  void write() const {
    toml::array files{"record.toml", "sweep.csv"};
    const auto members = dir_ / "members";
    std::error_code exists_ec;
    if (fs::exists(batch_checkpoint_file(members), exists_ec))
      files.push_back(batch_checkpoint_file("members").generic_string());
    for (std::size_t i = 0; i < members_; ++i) {
      const auto rel = member_dir("members", i);
      std::error_code ec;
      if (fs::exists(member_log(members, i), ec))
        files.push_back(member_log("members", i).generic_string());
      try {
        const auto record = toml::parse_file((member_dir(members, i) / "record.toml").string());
        if (const auto* listed = record["output"]["files"].as_array())
          for (const auto& f : *listed)
            files.push_back((rel / f.value_or(std::string())).generic_string());
      } catch (const std::exception&) {
      }
    }
    toml::table table = table_;
    table.insert_or_assign("output", toml::table{{"files", std::move(files)}});
    std::ostringstream os;
    os << "# Solvent sweep record: its file, its members, what ran them, how it ended.\n"
       << table << '\n';
    write_file_atomic(dir_ / "record.toml", os.str());
  }

 private:
  fs::path dir_;
  std::size_t members_;
  toml::table table_;
};

// A rank other than 0 under mpirun: asks for members and runs them until none is left.
void serve_members(MemberDispatch& dispatch, MemberExecutor& executor) {
  std::optional<MemberEnd> last;
  int forwarded = 0;
  while (const auto member = dispatch.ask(last)) {
    executor.start(std::span(&*member, 1));
    std::vector<MemberEnd> ended;
    while ((ended = executor.poll(std::chrono::milliseconds(100))).empty())
      if (const int sig = pending_signal(); sig != 0 && forwarded == 0)
        executor.signal(forwarded = sig);
    last = ended.front();
  }
}

}  // namespace

std::pair<fs::path, std::vector<std::string>> recorded_sweep_source(const fs::path& dir,
                                                                   const std::string& who,
                                                                   const std::string& remedy) {
  const auto record = sweep_record(dir);
  if (!record) throw ConfigError({fmt::format("{}: {} holds no sweep's record", who, dir.string())});
  const fs::path file = (*record)["run"]["config"].value_or(std::string());
  std::vector<std::string> overrides;
  if (const auto* a = (*record)["run"]["overrides"].as_array())
    for (const auto& o : *a) overrides.push_back(o.value_or(std::string()));
  std::error_code ec;
  if (!fs::exists(file, ec))
    throw ConfigError(
        {fmt::format("{}: the sweep's file {} no longer exists", who, file.string())});
  if (sha256_of_file(file) != (*record)["run"]["config_sha256"].value_or(std::string()))
    throw ConfigError({fmt::format(
        "{}: {} changed since the sweep started, so its members would not be the ones that "
        "ran; {}",
        who, file.string(), remedy)});
  return {file, overrides};
}

bool is_sweep(const RunOptions& opt) {
  bool sweep = false;
  agree_across_ranks(world(), [&] {
    sweep = opt.resume ? sweep_record(*opt.resume).has_value()
                       : has_sweep(load_config_document(opt.config, opt.overrides));
    return std::string(sweep ? "a sweep" : "one run");
  });
  return sweep;
}

std::optional<SweepState> inspect_sweep(const fs::path& dir) {
  const auto record = sweep_record(dir);
  if (!record) return std::nullopt;
  const auto& sweep = *(*record)["sweep"].as_table();
  SweepState s;
  s.mode = sweep["mode"].value_or(std::string());
  s.members = std::size_t(sweep["members"].value_or(std::int64_t{0}));
  if (const auto* keys = sweep["keys"].as_array())
    for (const auto& k : *keys) s.keys.push_back(k.value_or(std::string()));
  for (std::size_t i = 0; i < s.members; ++i) {
    if (!member_finished(member_dir(dir / "members", i))) continue;
    ++s.finished;
    if (!member_row(dir / "members", i, std::nullopt).ok) ++s.failed;
  }
  return s;
}

std::string check_members(const SweepPlan& plan) {
  // Each problem once, with the members it concerns: a bad value in a grid is met by every
  // member that takes it.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> problems;
  std::string resolved;
  auto note = [&](const std::string& p, std::size_t i) {
    auto it =
        std::find_if(problems.begin(), problems.end(), [&](const auto& e) { return e.first == p; });
    if (it == problems.end()) it = problems.insert(problems.end(), {p, {}});
    it->second.push_back(i);
  };
  // What each member's plugins say as they are made (its grid, ...) each member says in its
  // own log when it runs; said here it would repeat once a member.
  struct Quieter {
    std::shared_ptr<spdlog::logger> log = core_logger();
    spdlog::level::level_enum was = log->level();
    Quieter() { log->set_level(std::max(was, spdlog::level::warn)); }
    ~Quieter() { log->set_level(was); }
  } quieter;
  for (std::size_t i = 0; i < plan.members.size(); ++i) {
    try {
      // As the member's own process checks it before it runs (on one rank: each member
      // runs as one process).
      CheckedRun checked;
      check_run(single_rank(), [&] { return member_document(plan, i); }, checked);
      resolved += checked.resolved;
    } catch (const ConfigError& e) {
      for (const auto& p : e.problems()) note(p, i);
    } catch (const Error& e) {
      note(e.what(), i);
    }
  }
  if (!plan.batch.empty())
    if (const auto problem = batch_problem(plan)) note(*problem, 0);
  if (problems.empty()) return sha256_of(resolved);
  std::vector<std::string> all;
  for (const auto& [p, members] : problems)
    all.push_back(fmt::format("{} ({})", p, members_text(members, plan.members.size())));
  throw ConfigError(std::move(all));
}

SweepPlan agreed_sweep_plan(const Communicator& comm, const fs::path& file,
                            const std::vector<std::string>& overrides) {
  std::optional<SweepPlan> plan;
  agree_across_ranks(comm, [&] {
    plan.emplace(plan_sweep(file, overrides));
    return check_members(*plan);
  });
  return std::move(*plan);
}

// Long because the sweep's phases (agree on the plan, open the folder, run the members by
// processes, ranks or batches, write sweep.csv) share the plan, the summary and the error
// ladder of the ranks.
SweepSummary run_sweep(const RunOptions& opt, std::size_t jobs) {
  const Communicator& comm = world();
  const bool root = comm.rank() == 0;
  auto log = core_logger();
  if (!root) quiet_terminal(spdlog::level::err);
  std::optional<SweepPlan> plan;
  SweepSummary summary;
  std::string name;
  agree_across_ranks(comm, [&] {
    if (comm.size() > 1 && jobs > 1)
      throw ConfigError(
          {fmt::format("--jobs {}: under mpirun every rank runs one member at a "
                       "time; start more ranks instead",
                       jobs)});
    const auto [file, overrides] = sweep_source(opt);
    plan.emplace(plan_sweep(file, overrides));
    const auto digest = check_members(*plan);
    const auto first = resolve_config(member_document(*plan, 0));
    summary.output_dir = choose_output_dir(opt, first);
    name = first.run.string("name");
    return digest;
  });
  summary.mode = plan->mode;
  summary.fixed = plan->fixed;
  summary.members = plan->members.size();
  const auto members_dir = summary.output_dir / "members";

  std::optional<OutputDirLock> lock;
  std::optional<SweepRecord> record;
  std::vector<std::optional<MemberRow>> rows(summary.members);
  std::vector<std::size_t> pending;
  std::optional<std::vector<std::size_t>> stopped;  // a batch's members to continue
  const bool batches = !plan->batch.empty() && comm.size() == 1;
  agree_across_ranks(comm, [&] {
    if (!root) return std::string();
    lock.emplace(prepare_output_dir(summary.output_dir,
                                    {opt.resume.has_value(), opt.overwrite, plan->file}));
    // Checked before the record is touched: a refused checkpoint leaves the folder as it was.
    if (opt.resume && batches) stopped = stopped_batch(*plan, members_dir);
    for (std::size_t i = 0; i < summary.members; ++i) {
      if (opt.resume && member_finished(member_dir(members_dir, i)))
        rows[i] = member_row(members_dir, i, std::nullopt);
      else
        pending.push_back(i);
    }
    if (opt.resume)
      log->info("continuing the sweep in {}: {} of {} members still to run",
                summary.output_dir.string(), pending.size(), summary.members);
    record.emplace(summary.output_dir, *plan, name, opt, jobs, comm.size());
    record->write();
    write_file_atomic(summary.output_dir / "sweep.csv", sweep_csv(*plan, rows));
    return std::string();
  });

  SignalScope signals;
  ProcessExecutor processes({plan->file, plan->overrides, members_dir, opt.resume.has_value()},
                            comm.size() > 1 ? 1 : jobs);
  std::optional<BatchedExecutor> batched;
  if (batches) batched.emplace(*plan, members_dir, processes, std::move(stopped));
  MemberExecutor& executor = batched ? static_cast<MemberExecutor&>(*batched) : processes;
  std::optional<MemberDispatch> dispatch;
  if (comm.size() > 1) dispatch.emplace();
  if (!root) {
    serve_members(*dispatch, executor);
    return summary;
  }

  ProgressLine progress(opt.progress, opt.progress_every);
  int stopped_by = 0;
  auto ended = [&](const MemberEnd& end) {
    // A member stopped by the signal that stops the sweep is run again on --resume.
    if (stopped_by != 0 && !member_finished(member_dir(members_dir, end.index))) return;
    rows[end.index] = member_row(members_dir, end.index, end);
    ++summary.ran;
    write_file_atomic(summary.output_dir / "sweep.csv", sweep_csv(*plan, rows));
    const auto done =
        std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r.has_value(); });
    const auto failed =
        std::count_if(rows.begin(), rows.end(), [](const auto& r) { return r && !r->ok; });
    progress.show("member", done, std::int64_t(summary.members), fmt::format("{} failed", failed));
  };
  int workers = comm.size() - 1;
  auto next_member = [&]() -> std::optional<std::size_t> {
    if (stopped_by != 0 || pending.empty()) return std::nullopt;
    const auto member = pending.front();
    pending.erase(pending.begin());
    return member;
  };
  auto notice_signal = [&] {
    if (const int sig = pending_signal(); sig != 0 && stopped_by == 0) {
      stopped_by = sig;
      executor.signal(sig);
    }
  };
  while (workers > 0 || executor.running() > 0 || (stopped_by == 0 && !pending.empty())) {
    notice_signal();
    if (stopped_by == 0)
      for (const auto member : executor.start(pending)) std::erase(pending, member);
    // A batch runs inside start(): a signal during it stops the sweep as well.
    notice_signal();
    for (const auto& end : executor.poll(std::chrono::milliseconds(dispatch ? 10 : 100)))
      ended(end);
    while (const auto request = dispatch ? dispatch->next_request() : std::nullopt) {
      if (request->finished) ended(*request->finished);
      const auto member = next_member();
      dispatch->answer(request->rank, member);
      if (!member) --workers;
    }
  }

  std::size_t ok = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i]) continue;
    if (rows[i]->ok) {
      ++ok;
      continue;
    }
    ++summary.failed;
    summary.failures.push_back(fmt::format("member {}: {}", i, rows[i]->reason));
  }
  record->finish(stopped_by != 0 ? "interrupted" : "completed", ok, summary.failed);
  record->write();
  if (stopped_by != 0)
    throw Interrupted(stopped_by,
                      fmt::format("sweep interrupted by {}: {} of {} members finished; continue "
                                  "with: solvent run --resume {}",
                                  signal_name(stopped_by), ok + summary.failed, summary.members,
                                  summary.output_dir.string()));
  return summary;
}

}  // namespace solvent
