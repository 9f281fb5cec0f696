// solvent: runs numerical experiments described by TOML files, with every model,
// integrator and linear solver loaded from a plugin.
#include "commands.hpp"
#include "loader/plugin_registry.hpp"
#include "log/logging.hpp"
#include "ranks/communicator_world.hpp"
#include "record/build_info.hpp"

#include <solvent/abi.hpp>
#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

constexpr const char* usage =
    R"(solvent — numerical experiments from one TOML file, with swappable plugins

usage:
  solvent run FILE [--set section.key=value]... [--output DIR] [--overwrite]
                  [--progress[=auto|bar|lines|off]] [--progress-every SECONDS] [--no-progress]
                                  a FILE with a [sweep] table runs every member: add --jobs N
                                  for N at a time, or start it with mpirun; --member N runs
                                  its member N alone; a --set of a swept key fixes that key
  solvent run --resume DIR        continue a checkpointed run, or a sweep's unfinished members
  solvent status DIR              what DIR holds, how its run ended, whether it can be resumed
  solvent verify DIR [--member N] [--keep]
                                  rerun what DIR records (same config, rank and thread counts)
                                  and compare every output byte for byte, timings and logs aside
  solvent validate FILE [--set section.key=value]...
  solvent plugins [--path DIR]... [--markdown]  list plugins found, and why any library was skipped
  solvent describe NAME           parameters of a plugin, or of a section (run, output, sweep,
                                  linear_solver, ...): types, defaults, ranges, docs
  solvent --version | --help

Log messages go to stderr at level info; --log-level trace|debug|info|warn|error|off
(-v is debug, -q is warn: no closing summary either), before or after the subcommand, or the
environment variable SOLVENT_LOG_LEVEL, choose the level; the command line wins over the
variable. --log-timestamps begins each line with the UTC time and the rank. A run keeps its
whole log, with times and rank, in DIR/log.txt (info and above, whatever stderr shows);
run --log-per-rank also writes each rank's as DIR/log.rank-N.txt.

Plugins are searched in the config's [plugins] path, then SOLVENT_PLUGIN_PATH
(colon-separated), then next to the Solvent core library.

exit codes: 0 success, 1 other error, 2 configuration error, 3 plugin error,
4 malformed input file, 5 solver failure, 6 not converged or diverged, 7 no device,
8 (status) the run died without closing its record, 9 (verify) the rerun differs,
130 / 143 interrupted by SIGINT / SIGTERM (outputs up to the last step kept);
a sweep: 0 when every member completed, else 100 + the number that failed (at most 125)
)";

// The top level's help is the usage above, which also explains the plugin search and the
// exit codes; each subcommand's help is CLI11's, generated from its options.
class UsageFormatter : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    return app->get_parent() == nullptr ? usage
                                        : CLI::Formatter::make_help(app, std::move(name), mode);
  }
};

// spdlog's level::from_str turns any name it does not know into "off", so a misspelt level
// would silence every message; these are the names the command accepts.
constexpr std::array<std::pair<std::string_view, spdlog::level::level_enum>, 6> log_levels{{
    {"trace", spdlog::level::trace},
    {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},
    {"warn", spdlog::level::warn},
    {"error", spdlog::level::err},
    {"off", spdlog::level::off},
}};

std::optional<spdlog::level::level_enum> log_level_named(std::string_view name) {
  for (const auto& [n, level] : log_levels)
    if (n == name) return level;
  return std::nullopt;
}

struct LogOptions {
  std::string level;
  bool timestamps = false;
};

// The log options on the top level and on every subcommand, all writing `options`, so that
// `solvent -v run FILE` and `solvent run FILE -v` mean the same.
void add_log_options(CLI::App& app, LogOptions& options) {
  auto& level = options.level;
  std::vector<std::string> names;
  for (const auto& entry : log_levels) names.emplace_back(entry.first);
  auto* named = app.add_option("--log-level", level,
                               "least severe log messages shown (default info, or "
                               "SOLVENT_LOG_LEVEL)")
                    ->check(CLI::IsMember(names));
  auto* verbose = app.add_flag_callback("-v,--verbose", [&level] { level = "debug"; },
                                        "show debug messages (--log-level debug)");
  auto* quiet = app.add_flag_callback("-q,--quiet", [&level] { level = "warn"; },
                                      "show only warnings and errors (--log-level warn)");
  named->excludes(verbose)->excludes(quiet);
  verbose->excludes(quiet);
  app.add_flag("--log-timestamps", options.timestamps,
               "begin each log line on stderr with the UTC time and the rank (a run's log.txt "
               "always has them)");
}

// The command line's level, else SOLVENT_LOG_LEVEL's, else spdlog's default (info).
void apply_log_options(const LogOptions& options) {
  if (options.timestamps) solvent::timestamp_terminal(solvent::world().rank());
  const auto& from_command_line = options.level;
  const char* from_environment = std::getenv("SOLVENT_LOG_LEVEL");
  if (from_command_line.empty() && from_environment == nullptr) return;
  const std::string name = from_command_line.empty() ? from_environment : from_command_line;
  const auto level = log_level_named(name);
  if (!level)  // the command line's value was checked by CLI11
    throw solvent::ConfigError({fmt::format(
        "SOLVENT_LOG_LEVEL={}: not a log level (trace, debug, info, warn, error, off)", name)});
  solvent::set_log_level(*level);
}

// CLI11 names what it could not place, but not in which subcommand, and for an unknown
// subcommand only says that one is required; one line naming both is what a user needs.
std::string parse_problem(const CLI::App& app, const CLI::ParseError& e) {
  const auto given = app.get_subcommands();
  const CLI::App* where = given.empty() ? &app : given.front();
  auto left = app.remaining();
  if (!left.empty())
    where = &app;  // an unknown command, or an unknown option before the subcommand
  else if (where != &app && dynamic_cast<const CLI::ExtrasError*>(&e))
    left = where->remaining();
  const std::string who = where == &app ? "solvent" : "solvent " + where->get_name();
  std::string what = e.what();
  if (!left.empty())
    what = fmt::format("{} '{}'",
                       left.front().starts_with('-') ? "unknown option"
                       : where == &app               ? "unknown command"
                                                     : "unexpected argument",
                       left.front());
  if (!left.empty() && where == &app && !left.front().starts_with('-')) {
    std::vector<std::string> names;
    for (const auto* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (const auto near = solvent::nearest(left.front(), names); !near.empty())
      what += fmt::format("; did you mean '{}'?", near);
  }
  return fmt::format("{}: {} (try {} --help)", who, what, who);
}

int parse_and_run(int argc, char** argv) {
  CLI::App app("", "solvent");
  app.formatter(std::make_shared<UsageFormatter>());
  app.set_version_flag("--version",
                       fmt::format("solvent {} (plugin ABI {}; licence {})",
                                   solvent::version_string(), solvent::plugin_abi_version,
                                   solvent::build_info::licence));
  app.require_subcommand(1);
  // A value given to a flag (--overwrite=false) is a mistake, not a way to switch it off.
  app.option_defaults()->disable_flag_override();
  const solvent::cli::Args all(argv, argv + argc);
  // `solvent help ...` prints the usage, as before CLI11, whatever follows.
  auto* help = app.add_subcommand("help")->group("")->allow_extras();
  const std::vector<solvent::cli::Command> commands{solvent::cli::add_run_command(app, all),
                                                    solvent::cli::add_validate_command(app),
                                                    solvent::cli::add_plugins_command(app),
                                                    solvent::cli::add_describe_command(app),
                                                    solvent::cli::add_status_command(app),
                                                    solvent::cli::add_verify_command(app, all),
                                                    {help, [] {
                                                       std::fputs(usage, stdout);
                                                       return 0;
                                                     }}};
  LogOptions log_options;
  add_log_options(app, log_options);
  for (auto* sub : app.get_subcommands({}))
    if (sub != help) add_log_options(*sub, log_options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    throw solvent::ConfigError({parse_problem(app, e)});
  }
  apply_log_options(log_options);
  const CLI::App* given = app.get_subcommands().front();  // exactly one: require_subcommand(1)
  return std::find_if(commands.begin(), commands.end(),
                      [&](const auto& c) { return c.parser == given; })
      ->execute();
}

// The command's exit code; every error is reported here, once.
int command(int argc, char** argv) {
  try {
    return parse_and_run(argc, argv);
  } catch (const solvent::OtherRankFailed& e) {
    return e.exit_code();  // rank 0 reports it
  } catch (const solvent::RankWaitError& e) {
    // Met outside a run's own error path (while the ranks set up): finish_world ends them all.
    std::fprintf(stderr, "error: rank %d: %s\n", e.rank(), e.what());
    return e.exit_code();
  } catch (const solvent::ConfigError& e) {
    for (const auto& p : e.problems()) std::fprintf(stderr, "error: %s\n", p.c_str());
    std::fprintf(stderr, "%zu configuration error%s; nothing was run\n", e.problems().size(),
                 e.problems().size() == 1 ? "" : "s");
    return e.exit_code();
  } catch (const solvent::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  } catch (...) {
    // Plugin code (a schema, a constructor) may throw anything; never std::terminate.
    std::fputs("error: a plugin threw an exception that is not a std::exception\n", stderr);
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(usage, stderr);
    return 2;
  }
  solvent::cli::divide_cores_among_local_ranks(argv);
  // Under mpirun every rank gets here: MPI ends with the process, aborted with the exit code
  // where the ranks left an operation unfinished.
  const int code = command(argc, argv);
  solvent::finish_world(code);
  return code;
}
