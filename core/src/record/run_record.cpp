#include "record/run_record.hpp"

#include "io/output_manifest.hpp"
#include "record/build_info.hpp"
#include "record/host_info.hpp"
#include "record/sha256.hpp"

#include <solvent/abi.hpp>
#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace solvent {

std::string utc_now() {
  const auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// The least room kept for the closing record, beyond four times the size of the first.
constexpr std::size_t reserve_bytes = 64 * 1024;

// Best effort: on a disk already too full for it the run goes on without one, as it did
// before reserves existed, rather than failing for want of a precaution.
void make_reserve(const std::filesystem::path& path, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const bool made = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes)) == 0;
  ::close(fd);
  std::error_code ec;
  if (!made) std::filesystem::remove(path, ec);
}

toml::table plugin_entry(const ResolvedRole& r) {
  const auto* d = r.plugin->descriptor;
  return toml::table{{"name", d->name},
                     {"version", d->version},
                     {"device", d->device ? d->device : "cpu"},
                     {"built_against_solvent", d->solvent_version ? d->solvent_version : "?"},
                     {"path", r.plugin->path.string()},
                     {"sha256", sha256_of_file(r.plugin->path)}};
}
}  // namespace

void insert_provenance(toml::table& record) {
  record.insert("solvent",
                toml::table{{"version", version_string()},
                            {"git_commit", build_info::git_commit},
                            {"licence", build_info::licence},
                            {"plugin_abi", static_cast<std::int64_t>(plugin_abi_version)}});
  record.insert("build", toml::table{{"compiler", build_info::compiler},
                                     {"build_type", build_info::build_type},
                                     {"cuda_compiler", build_info::cuda_compiler},
                                     {"boost", build_info::boost_version},
                                     {"spdlog", build_info::spdlog_version},
                                     {"fmt", build_info::fmt_version},
                                     {"tomlplusplus", build_info::tomlplusplus_version}});
  const auto host = probe_host();
  record.insert("host", toml::table{{"hostname", host.hostname},
                                    {"os", host.os},
                                    {"cpu", host.cpu},
                                    {"cores", static_cast<std::int64_t>(host.cores)},
                                    {"cores_allowed", static_cast<std::int64_t>(host.cores_allowed)},
                                    {"threads", static_cast<std::int64_t>(host.threads)},
                                    {"ranks", std::int64_t{1}},
                                    {"gpus", host.gpus}});
}

RunRecord::RunRecord(std::filesystem::path dir, const ResolvedConfig& cfg,
                     std::vector<std::string> argv, const std::string& config_sha256)
    : dir_(std::move(dir)) {
  toml::array args;
  for (const auto& a : argv) args.push_back(a);
  table_.insert("run", toml::table{{"name", cfg.run.string("name")},
                                   {"seed", cfg.run.integer("seed")},
                                   {"config", std::filesystem::absolute(cfg.file).string()},
                                   {"config_sha256", config_sha256},
                                   {"pid", static_cast<std::int64_t>(::getpid())},
                                   {"command", std::move(args)},
                                   {"started", utc_now()},
                                   {"status", "running"}});
  insert_provenance(table_);
  toml::table plugins;
  if (cfg.model) plugins.insert("model", plugin_entry(*cfg.model));
  if (cfg.integrator) plugins.insert("integrator", plugin_entry(*cfg.integrator));
  if (cfg.linear_solver) plugins.insert("linear_solver", plugin_entry(*cfg.linear_solver));
  if (cfg.preconditioner) plugins.insert("preconditioner", plugin_entry(*cfg.preconditioner));
  if (cfg.fallback_solver)
    plugins.insert("fallback_linear_solver", plugin_entry(*cfg.fallback_solver));
  // A config's [plugins] path runs the code found there: the record says where it looked.
  toml::array from_config;
  for (const auto& d : cfg.plugin_dirs()) from_config.push_back(d);
  plugins.insert("search_path_from_config", std::move(from_config));
  table_.insert("plugins", std::move(plugins));
}

void RunRecord::add_facts(const std::string& role, const Facts& facts) {
  if (facts.empty()) return;
  if (!table_.contains("facts")) table_.insert("facts", toml::table{});
  auto& f = *table_["facts"].as_table();
  toml::table t;
  for (const auto& [k, v] : facts) t.insert_or_assign(k, v);
  f.insert_or_assign(role, std::move(t));
}

void RunRecord::set_ranks(const std::vector<std::string>& ranks,
                          const std::vector<double>& speeds) {
  auto& host = *table_["host"].as_table();
  host.insert_or_assign("ranks", static_cast<std::int64_t>(ranks.size()));
  toml::array each;
  for (const auto& r : ranks) each.push_back(r);
  host.insert_or_assign("each_rank", std::move(each));
  if (speeds.empty()) return;
  toml::array measured;
  for (const double s : speeds) measured.push_back(s);
  host.insert_or_assign("measured_speed_each_rank", std::move(measured));
}

void RunRecord::add_conversion(const std::string& what) {
  auto& plugins = *table_["plugins"].as_table();
  if (!plugins.contains("operator_conversions"))
    plugins.insert("operator_conversions", toml::array{});
  plugins["operator_conversions"].as_array()->push_back(what);
}

void RunRecord::set_solver_in_use(const std::string& note) {
  table_["plugins"].as_table()->insert_or_assign("linear_solver_in_use", note);
}

void RunRecord::set_outcome(const std::string& status, const std::string& message) {
  auto& run = *table_["run"].as_table();
  run.insert_or_assign("status", status);
  run.insert_or_assign("finished", utc_now());
  if (!message.empty()) run.insert_or_assign("message", message);
}

void RunRecord::set_result(std::int64_t steps, double t, const std::optional<SolveStats>& stats,
                           const std::vector<Observable>& observables) {
  toml::table r{{"steps", steps}, {"t", t}};
  if (stats) {
    r.insert("iterations", stats->iterations);
    // A solver that does not form the residual says so rather than writing a number.
    if (std::isnan(stats->residual))
      r.insert("relative_residual", "not computed by this solver");
    else
      r.insert("relative_residual", stats->residual);
    r.insert("converged", stats->converged);
    r.insert("solver_status", stats->status);
  }
  toml::table obs;
  for (const auto& o : observables) obs.insert_or_assign(o.name, o.value);
  if (!obs.empty()) r.insert("final_observables", std::move(obs));
  table_.insert_or_assign("result", std::move(r));
}

void RunRecord::set_timings(const std::map<std::string, double>& seconds, double wall) {
  toml::table t{{"wall", wall}};
  for (const auto& [k, v] : seconds) t.insert_or_assign(k, v);
  table_.insert_or_assign("seconds", std::move(t));
}

void RunRecord::write() const {
  // Every file this run wrote here, relative to the directory, record.toml itself included
  // (noted by its first write): what --overwrite may remove, and all it may remove.
  std::vector<std::string> names;
  for (const auto& f : written_files()) {
    const auto rel = f.lexically_relative(dir_);
    if (!rel.empty() && *rel.begin() != "..") names.push_back(rel.generic_string());
  }
  if (std::find(names.begin(), names.end(), "record.toml") == names.end())
    names.push_back("record.toml");
  toml::array files;
  for (const auto& n : names) files.push_back(n);
  toml::table table = table_;
  table.insert_or_assign("output", toml::table{{"files", std::move(files)}});
  std::ostringstream os;
  os << "# Solvent run record: what ran, where, with what, and how it ended.\n" << table << '\n';
  const auto text = os.str();
  // Room kept on the disk while the run lives, for its record's last word: a disk that
  // fills during the run (observables, profiles) would otherwise leave the record saying
  // "running". Named as a temporary, so a killed run's reserve goes with its other
  // temporaries when the directory is next prepared.
  const auto reserve = dir_ / ("record.toml.reserve.tmp." + std::to_string(::getpid()));
  std::error_code ec;
  try {
    write_file_atomic(dir_ / "record.toml", text);
  } catch (const Error&) {
    if (!std::filesystem::remove(reserve, ec)) throw;
    write_file_atomic(dir_ / "record.toml", text);
  }
  if (table_["run"]["status"].value_or(std::string{}) != "running")
    std::filesystem::remove(reserve, ec);
  else if (!std::filesystem::exists(reserve, ec))
    make_reserve(reserve, reserve_bytes + 4 * text.size());
}

}  // namespace solvent
