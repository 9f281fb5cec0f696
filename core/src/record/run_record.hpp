#pragma once
// record.toml: everything needed to trust and repeat a run — Solvent's version and commit,
// the build's compiler and library versions, the host, each plugin's name, version, path
// and SHA-256, the seed, wall time per phase, the outcome. Rewritten atomically at the
// start (status "running") and at the end.
#include "config/config_validation.hpp"

#include <solvent/linear_solver.hpp>
#include <solvent/model.hpp>
#include <solvent/plugin_object.hpp>

#include <map>

namespace solvent {

// The sections every record has, a run's or a sweep's: [solvent] (version, commit, plugin
// ABI), [build] (compiler and library versions) and [host].
void insert_provenance(toml::table& record);
// The time now, as a record writes it: 2026-01-31T12:00:00Z.
std::string utc_now();

class RunRecord {
 public:
  // config_sha256: of the resolved configuration's text (config.toml), which `--resume`
  // compares against.
  RunRecord(std::filesystem::path dir, const ResolvedConfig& cfg, std::vector<std::string> argv,
            const std::string& config_sha256);

  void add_facts(const std::string& role, const Facts& facts);
  // One line per rank ("host, N threads"), in rank order, and, when the blocks were
  // balanced by it, each rank's measured speed.
  void set_ranks(const std::vector<std::string>& ranks, const std::vector<double>& speeds = {});
  void set_solver_in_use(const std::string& note);  // e.g. a fallback taking over
  void add_conversion(const std::string& what);       // the core converted the operator
  void set_outcome(const std::string& status, const std::string& message);
  void set_result(std::int64_t steps, double t, const std::optional<SolveStats>& stats,
                  const std::vector<Observable>& observables);
  void set_timings(const std::map<std::string, double>& seconds, double wall);
  void write() const;

 private:
  std::filesystem::path dir_;
  toml::table table_;
};

}  // namespace solvent
