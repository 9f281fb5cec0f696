#include "run/run_check.hpp"

#include "ranks/communicator_world.hpp"
#include "record/sha256.hpp"
#include "run/device_probe.hpp"
#include "run/rank_checks.hpp"

#include <solvent/errors.hpp>

#include <sstream>

namespace solvent {

void check_run(const Communicator& comm, const std::function<ConfigDocument()>& load,
               CheckedRun& out, PhaseTimer* timer,
               const std::function<void(const ResolvedConfig&)>& on_resolved) {
  // Every rank reads and checks the configuration; the ranks then agree (and check that
  // they resolved the same configuration). Only then are the plugins made, since making
  // them may take the ranks through collectives (a measured balance, a device probe): a
  // rank whose copy of the file is bad must not leave the others waiting in one.
  agree_across_ranks(comm, [&] {
    out.cfg.emplace(resolve_config(load()));
    const auto& cfg = *out.cfg;
    if (on_resolved) on_resolved(cfg);
    if (comm.size() > 1)
      if (auto problems = rank_problems(cfg, comm.size()); !problems.empty())
        throw ConfigError(std::move(problems));
    // Exit 7 as the plugin's own probe would give, but before anything is made or written.
    if (auto problem = gpu_only_problem(cfg); !problem.empty()) throw DeviceUnavailable(problem);
    std::ostringstream text;
    text << "# Resolved configuration (defaults filled in) of this run.\n" << cfg.to_toml() << '\n';
    out.resolved = text.str();
    return sha256_of(out.resolved);
  });
  agree_across_ranks(comm, [&] {
    // Their phases in the record: "model" (a grid model assembles its operator as it is
    // made), "calibration" and "plugins".
    out.plugins = create_plugins(*out.cfg, comm, timer);
    if (auto problems = combination_problems(*out.cfg, out.plugins); !problems.empty())
      throw ConfigError(std::move(problems));
    return std::string();
  });
}

}  // namespace solvent
