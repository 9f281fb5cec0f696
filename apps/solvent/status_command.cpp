#include "commands.hpp"

#include "config/config_validation.hpp"
#include "io/output_dir.hpp"
#include "io/output_manifest.hpp"
#include "loader/plugin_library.hpp"
#include "log/logging.hpp"
#include "sweep/sweep_runner.hpp"

#include <solvent/errors.hpp>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <memory>

namespace solvent::cli {

namespace {

// A record that still says "running" while no process holds the directory's lock: the
// process that owned the run is gone (the kernel drops an flock when its holder dies, however
// it dies), so the run died without closing its record. Its own exit code lets a script tell
// that from a live run and from a run that ended and said so.
constexpr int died_exit_code = 8;
constexpr const char* died = "died (killed or crashed) without closing its record";

bool dead(const OutputDirState& s) { return !s.in_use && s.status == "running"; }

std::string how_it_ended(const OutputDirState& s) {
  if (s.in_use)
    return fmt::format("running now{}", s.pid > 0 ? fmt::format(" (process {})", s.pid) : "");
  if (dead(s))
    return fmt::format(
        "{}{}", died,
        s.last_row_step >= 0 ? fmt::format("; the last step written is {}", s.last_row_step) : "");
  if (s.status == "completed") return fmt::format("completed: step {}, t = {:.6g}", s.steps, s.t);
  return fmt::format("{} at step {} (t = {:.6g}){}", s.status, s.steps, s.t,
                     s.message.empty() ? "" : ": " + s.message);
}

// Whether the run can be continued: asks its integrator (the plugin the record names,
// found as a run would find it) for the checkpoint in the directory.
std::string resumability(const std::filesystem::path& dir, const OutputDirState& s) {
  if (s.in_use) return "not while it runs";
  try {
    const auto cfg = resolve_config(load_config_document(dir / "config.toml", {}));
    const auto integrator = create_integrator(*cfg.integrator->plugin,
                                              PluginContext{cfg.integrator->params, core_logger()});
    if (!integrator->writes_checkpoints())
      return fmt::format("no: integrator '{}' writes no checkpoints", s.integrator);
    const auto step = integrator->checkpoint_step(dir);
    // A sweep's member without a checkpoint of its own (one its batch stopped: the batch holds
    // its state) continues with its sweep, which also brings the sweep's table up to date.
    auto sweep = (dir / ".." / "..").lexically_normal();
    if (sweep.filename().empty()) sweep = sweep.parent_path();  // "OUT/" said as "OUT"
    if (!step && s.status != "completed" && inspect_sweep(sweep))
      return fmt::format("with its sweep: solvent run --resume {}", sweep.string());
    if (!step) return "no: no checkpoint was written";
    if (s.status == "completed")
      return fmt::format("checkpoint at step {}; to extend the run: solvent run --resume {} --set "
                         "integrator.steps=N",
                         *step, dir.string());
    return fmt::format("yes, from the checkpoint at step {}: solvent run --resume {}", *step,
                       dir.string());
  } catch (const Error& e) {
    return fmt::format("unknown: its configuration cannot be loaded ({})", e.what());
  }
}

// A sweep's directory: how many members finished, and whether any are left to run.
void print_sweep(const std::filesystem::path& dir, const OutputDirState& s, const SweepState& w) {
  std::printf("%s: sweep '%s' of %zu members (%s over %s)\n", dir.c_str(), s.name.c_str(),
              w.members, w.mode.c_str(), fmt::format("{}", fmt::join(w.keys, ", ")).c_str());
  const auto finished = fmt::format("{} of {} members finished, {} failed", w.finished, w.members,
                                    w.failed);
  const std::string how =
      s.in_use ? fmt::format("running now{}", s.pid > 0 ? fmt::format(" (process {})", s.pid) : "")
      : dead(s) ? died
                : s.status;
  std::printf("  status: %s: %s\n", how.c_str(), finished.c_str());
  const auto left = w.members - w.finished;
  std::printf("  resume: %s\n",
              s.in_use    ? "not while it runs"
              : left == 0 ? "nothing to run: every member finished"
                          : fmt::format("yes, {} member{} to run: solvent run --resume {}", left,
                                        left == 1 ? "" : "s", dir.string())
                                .c_str());
}

}  // namespace

Command add_status_command(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  auto* status = app.add_subcommand(
      "status", "Say what an output directory holds, how its run ended, and whether it can be "
      "continued with --resume.");
  status->add_option("DIR", *dir, "the output directory")->type_name("")->required();
  return {status, [dir] {
            const std::filesystem::path d = *dir;
            const auto s = inspect_output_dir(d);
            if (!s.exists) throw ConfigError({fmt::format("{} does not exist", d.string())});
            if (!s.ours)
              throw ConfigError({fmt::format("{} is not a Solvent output directory (no {} "
                                             "marker, no record.toml)",
                                             d.string(), output_marker)});
            if (!s.has_record) {
              std::printf("%s: a Solvent output directory holding no run (no readable "
                          "record.toml)\n",
                          d.c_str());
              return 0;
            }
            if (const auto sweep = inspect_sweep(d)) {
              print_sweep(d, s, *sweep);
              return dead(s) ? died_exit_code : 0;
            }
            std::printf("%s: run '%s', model %s, integrator %s\n", d.c_str(), s.name.c_str(),
                        s.model.c_str(), s.integrator.c_str());
            std::printf("  status: %s\n", how_it_ended(s).c_str());
            std::printf("  resume: %s\n", resumability(d, s).c_str());
            return dead(s) ? died_exit_code : 0;
          }};
}

}  // namespace solvent::cli
