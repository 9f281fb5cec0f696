#include "commands.hpp"

#include "io/output_dir.hpp"
#include "log/logging.hpp"
#include "ranks/communicator_world.hpp"
#include "record/host_info.hpp"
#include "record/run_comparison.hpp"
#include "run/run_driver.hpp"
#include "sweep/sweep_runner.hpp"

#include <solvent/errors.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>

namespace solvent::cli {

namespace {

namespace fs = std::filesystem;

// Above the codes of a run (1-7) and of `status` (8), below a sweep's (100 + failed): a
// script tells "the rerun differs" from "the rerun could not be made".
constexpr int differs_exit_code = 9;

struct VerifyOptions {
  std::string dir;
  std::optional<std::size_t> member;
  bool keep = false;
  Args argv;
};

// The run folder to repeat: DIR, or with --member N the sweep member's folder in it.
struct Target {
  fs::path folder;
  toml::table record;
  bool sweep = false;
};

Target target_of(const fs::path& dir, const std::optional<std::size_t>& member) {
  const auto s = inspect_output_dir(dir);
  if (!s.exists) throw ConfigError({fmt::format("{} does not exist", dir.string())});
  if (!s.ours || !s.has_record)
    throw ConfigError(
        {fmt::format("{} holds no Solvent run (no readable record.toml)", dir.string())});
  if (s.in_use) throw ConfigError({fmt::format("{}: its run is still running", dir.string())});
  Target t{dir, toml::parse_file((dir / "record.toml").string()), false};
  t.sweep = t.record["sweep"].is_table();
  if (member) {
    if (!t.sweep)
      throw ConfigError({fmt::format("--member {}: {} holds a single run, not a sweep", *member,
                                     dir.string())});
    const auto members = t.record["sweep"]["members"].value_or(std::int64_t{0});
    if (std::int64_t(*member) >= members)
      throw ConfigError({fmt::format("--member {}: the sweep in {} has {} members (0 to {})",
                                     *member, dir.string(), members, members - 1)});
    return target_of(dir / "members" / fmt::format("{:04}", *member), std::nullopt);
  }
  const auto status = t.record["run"]["status"].value_or(std::string());
  if (status != "completed")
    throw ConfigError({fmt::format("{}: its run ended '{}'; verify repeats completed runs",
                                   dir.string(), status)});
  return t;
}

// The record's rank count, or the command that gives it; its thread count, set here for
// the plugins (OpenMP reads OMP_NUM_THREADS once, at its start) and the sweep's members.
void match_ranks_and_threads(const Target& t, const VerifyOptions& opt) {
  const auto ranks = t.record["host"]["ranks"].value_or(std::int64_t{1});
  if (ranks != world().size())
    throw ConfigError({fmt::format(
        "{} ran on {} rank{} and this verify has {}: run {}{} verify {}{}", t.folder.string(),
        ranks, ranks == 1 ? "" : "s", world().size(),
        ranks > 1 ? fmt::format("mpirun -n {} ", ranks) : "", opt.argv.front(), opt.dir,
        opt.member ? fmt::format(" --member {}", *opt.member) : "")});
  const auto threads = t.record["host"]["threads"].value_or(std::int64_t{0});
  if (threads <= 0 || threads == std::int64_t(probe_host().threads)) return;
  core_logger()->info("running with {} threads, as the record says", threads);
  ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
  // The record's count, not a division of the host's cores (rank_threads.cpp).
  ::unsetenv("SOLVENT_THREADS_SHARED");
#ifdef _OPENMP
  omp_set_num_threads(int(threads));
#endif
}

// A new folder beside DIR (so that every rank of a run over hosts sees it; beside the sweep,
// not in it, for a member), made by rank 0 and named to the others; removed when the verify
// ends unless --keep.
class RerunFolder {
 public:
  RerunFolder(const fs::path& dir, bool keep) : keep_(keep) {
    auto beside = fs::absolute(dir).lexically_normal();
    if (beside.filename().empty()) beside = beside.parent_path();
    std::string name;
    agree_across_ranks(world(), [&] {
      if (world().rank() != 0) return std::string();
      name = (beside.parent_path() / fmt::format(".{}.verify-XXXXXX", beside.filename().string()))
                 .string();
      if (::mkdtemp(name.data()) == nullptr)
        throw Error(fmt::format("{}: cannot make the rerun's folder: {}", name,
                                std::strerror(errno)));
      return std::string();
    });
    world().broadcast(name, 0);
    path_ = name;
  }
  ~RerunFolder() {
    if (keep_ || world().rank() != 0) return;
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  RerunFolder(const RerunFolder&) = delete;
  RerunFolder& operator=(const RerunFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool keep_;
};

void rerun(const Target& t, const VerifyOptions& opt, const fs::path& into) {
  RunOptions run;
  run.output_dir = into;
  run.progress = ProgressMode::Never;
  run.argv = opt.argv;
  if (!t.sweep) {
    run.config = t.folder / "config.toml";
    run_experiment(run);
    return;
  }
  std::tie(run.config, run.overrides) = recorded_sweep_source(
      t.folder, "verify " + opt.dir,
      fmt::format("verify its members one at a time: solvent verify {} --member N", opt.dir));
  const auto jobs = t.record["sweep"]["jobs"].value_or(std::int64_t{1});
  run_sweep(run, std::size_t(std::max<std::int64_t>(jobs, 1)));
}

int verify(const VerifyOptions& opt) {
  // Rank 0 speaks for the ranks, as in a run.
  if (world().rank() != 0) quiet_terminal(spdlog::level::err);
  Target target;
  agree_across_ranks(world(), [&] {
    target = target_of(opt.dir, opt.member);
    match_ranks_and_threads(target, opt);
    return std::string();
  });
  RerunFolder into(opt.dir, opt.keep);
  core_logger()->info("repeating the {} in {} into {}", target.sweep ? "sweep" : "run",
                      target.folder.string(), into.path().string());
  rerun(target, opt, into.path());
  world().barrier();  // every rank's pieces written
  if (world().rank() != 0) return 0;
  const auto [differences, left_aside] = compare_run_folders(target.folder, into.path());
  for (const auto& f : left_aside)
    core_logger()->info("left aside: {} (no record in {} lists it: added after the run)", f,
                        target.folder.string());
  const std::string kept =
      opt.keep ? fmt::format("; the rerun is kept in {}", into.path().string()) : "";
  if (differences.empty()) {
    std::printf("verified: %s is repeated byte for byte (timings and logs aside)%s\n",
                target.folder.c_str(), kept.c_str());
    return 0;
  }
  std::printf("%s differs from its rerun (timings and logs aside)%s:\n", target.folder.c_str(),
              kept.c_str());
  for (const auto& d : differences) std::printf("  %s: %s\n", d.file.c_str(), d.what.c_str());
  return differs_exit_code;
}

}  // namespace

Command add_verify_command(CLI::App& app, const Args& argv) {
  auto opt = std::make_shared<VerifyOptions>();
  opt->argv = argv;
  auto* verify_cmd = app.add_subcommand(
      "verify", "Rerun the experiment a run folder records (its config.toml, plugins, rank and "
      "thread counts) and compare every output byte for byte, timings and logs aside: exit 0 "
      "when identical, 9 naming what differs.");
  verify_cmd->add_option("DIR", opt->dir, "the run's (or sweep's) output directory")
      ->type_name("")
      ->required();
  verify_cmd
      ->add_option_function<std::size_t>(
          "--member", [opt](std::size_t i) { opt->member = i; },
          "a sweep: repeat member N alone (default: the whole sweep)")
      ->type_name("N");
  verify_cmd->add_flag("--keep", opt->keep, "keep the rerun's folder (beside DIR) to inspect it");
  return {verify_cmd, [opt] { return verify(*opt); }};
}

}  // namespace solvent::cli
