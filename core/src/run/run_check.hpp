#pragma once
// Every refusal `solvent run` can make before it touches the output folder, in one place, so
// that `solvent validate` (and a sweep's check of its members) refuses exactly what a run
// would: the configuration against every schema, the plugins' rank limits, the plugin
// objects made over the run's ranks (a model checks its sizes and split and reads its
// input files), and whether they fit together (forms, devices, conversion sizes).
#include "config/config_validation.hpp"
#include "run/combination.hpp"

#include <solvent/communicator.hpp>
#include <solvent/phase_timer.hpp>

#include <functional>
#include <optional>
#include <string>

namespace solvent {

struct CheckedRun {
  std::optional<ResolvedConfig> cfg;
  PluginSet plugins;
  std::string resolved;  // the resolved configuration as config.toml holds it
};

// Over the ranks of `comm`, each rank checking: a problem on any rank is reported once, by
// rank 0 (ranks/rank_agreement.hpp). `load` reads the document (the file and its --set, or
// a sweep's member); `on_resolved` sees the resolved configuration before the plugins are
// made. The plugins' making is timed as the phase "plugins" where a timer is given.
void check_run(const Communicator& comm, const std::function<ConfigDocument()>& load,
               CheckedRun& out, PhaseTimer* timer = nullptr,
               const std::function<void(const ResolvedConfig&)>& on_resolved = {});

}  // namespace solvent
