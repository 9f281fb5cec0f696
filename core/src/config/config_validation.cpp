#include "config/config_validation.hpp"

#include "log/logging.hpp"

#include <solvent/errors.hpp>
#include <solvent/memory.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace solvent {

namespace fs = std::filesystem;

const Schema& run_schema() {
  static const Schema s{
      ParamSpec::string("name", "experiment", "Name of the experiment, used in the output path"),
      ParamSpec::integer("seed", 0, "Seed of every random draw in the run").at_least(0),
      ParamSpec::real("max_memory_gib", 0.0,
                      "Most memory (GiB) the plugins may plan to allocate: a model whose "
                      "estimate is larger is refused before it allocates; 0 means the "
                      "memory this machine has available (MemAvailable)")
          .at_least(0.0)
          .in_unit("GiB"),
      ParamSpec::choice("balance", "even", {"even", "measured"},
                        "Over several ranks, the blocks of a split grid: of equal size, or sized "
                        "by each rank's measured speed at the linear solver's work (a short "
                        "calibration, recorded)"),
  };
  return s;
}

const Schema& plugins_schema() {
  static const Schema s{ParamSpec::strings(
      "path", {}, "Directories searched for plugins first (relative to the config file)")};
  return s;
}

const Schema& output_schema() {
  static const Schema s{
      ParamSpec::string("directory", "",
                        "Output directory, relative to the configuration file's folder (from "
                        "--set: to the working directory); empty means out/<run.name> in the "
                        "working directory"),
      ParamSpec::integer("every", 10, "Write the state profiles every this many steps").at_least(1),
      ParamSpec::reals("times", {}, "Write the state profiles at these times instead"),
      ParamSpec::boolean("solution", true, "Write the solution vector of a steady solve"),
      ParamSpec::choice("format", "vtk", {"vtk", "vtk-ascii", "vtkhdf", "none"},
                        "Fields on grids of two or three axes: VTK XML with the values in raw "
                        "binary (vtk), the same as 17-digit text (vtk-ascii: small grids, "
                        "diffs), one HDF5 file written by all ranks together (vtkhdf: VTK's "
                        "HDF5 layout, read by ParaView and h5py; needs a build with HDF5), "
                        "or not written (none)"),
      ParamSpec::choice("precision", "float64", {"float64", "float32"},
                        "The values of field files: float64 (the solver's bits) or float32 "
                        "(half the bytes, for viewing)"),
  };
  return s;
}

namespace {

void flatten(const toml::table& t, const std::string& prefix,
             std::vector<std::pair<std::string, const toml::node*>>& out) {
  for (const auto& [k, v] : t) {
    std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const auto* sub = v.as_table())
      flatten(*sub, key, out);
    else
      out.emplace_back(key, &v);
  }
}

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a real";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "a date or time";
  }
}

std::string expected_name(ParamType t) {
  switch (t) {
    case ParamType::Boolean:
      return "a boolean";
    case ParamType::Integer:
      return "an integer";
    case ParamType::Real:
      return "a real";
    case ParamType::String:
      return "a string";
    default:
      return std::string(to_string(t));
  }
}

std::string number_text(double v) { return fmt::format("{}", v); }

// Empty when v satisfies the bounds, else why not. `shown` is the value as written: an
// integer past 2^53 has no exact double, and the message must name what the user wrote.
std::string range_problem(const ParamSpec& s, double v, const std::string& shown) {
  if (!std::isfinite(v)) return fmt::format("value {} is not finite", v);
  if (s.min && (s.min_exclusive ? !(v > *s.min) : !(v >= *s.min)))
    return fmt::format("value {} must be {} {}", shown, s.min_exclusive ? ">" : ">=",
                       number_text(*s.min));
  if (s.max && (s.max_exclusive ? !(v < *s.max) : !(v <= *s.max)))
    return fmt::format("value {} must be {} {}", shown, s.max_exclusive ? "<" : "<=",
                       number_text(*s.max));
  return {};
}

std::string range_problem(const ParamSpec& s, double v) {
  return range_problem(s, v, number_text(v));
}

std::optional<double> as_number(const toml::node& n) {
  if (auto i = n.value_exact<std::int64_t>()) return static_cast<double>(*i);
  if (auto d = n.value_exact<double>()) return *d;
  return std::nullopt;
}

// Converts a node to the spec's type; on failure returns nullopt and sets `why`.
std::optional<ParamValue> convert(const toml::node& n, const ParamSpec& s, std::string& why) {
  auto wrong_type = [&] {
    why = fmt::format("must be {}, got {}", expected_name(s.type), type_name(n));
    return std::nullopt;
  };
  switch (s.type) {
    case ParamType::Boolean:
      if (auto b = n.value_exact<bool>()) return ParamValue{*b};
      return wrong_type();
    case ParamType::Integer: {
      auto i = n.value_exact<std::int64_t>();
      if (!i) return wrong_type();
      if (why = range_problem(s, static_cast<double>(*i), std::to_string(*i)); !why.empty())
        return std::nullopt;
      return ParamValue{*i};
    }
    case ParamType::Real: {
      auto d = as_number(n);
      if (!d) return wrong_type();
      if (why = range_problem(s, *d); !why.empty()) return std::nullopt;
      return ParamValue{*d};
    }
    case ParamType::String: {
      auto str = n.value_exact<std::string>();
      if (!str) return wrong_type();
      if (!s.choices.empty() &&
          std::find(s.choices.begin(), s.choices.end(), *str) == s.choices.end()) {
        std::string list;
        for (const auto& c : s.choices) list += (list.empty() ? "" : ", ") + c;
        auto near = nearest(*str, s.choices);
        why = fmt::format("value '{}' is not one of: {}{}", *str, list,
                          near.empty() ? "" : fmt::format(" (did you mean '{}'?)", near));
        return std::nullopt;
      }
      return ParamValue{*str};
    }
    case ParamType::RealList:
    case ParamType::IntegerList:
    case ParamType::StringList: {
      const auto* arr = n.as_array();
      if (!arr) return wrong_type();
      std::vector<double> reals;
      std::vector<std::int64_t> ints;
      std::vector<std::string> strs;
      for (std::size_t i = 0; i < arr->size(); ++i) {
        const auto& e = *arr->get(i);
        if (s.type == ParamType::StringList) {
          auto v = e.value_exact<std::string>();
          if (!v) return why = fmt::format("element {} must be a string", i), std::nullopt;
          strs.push_back(*v);
          continue;
        }
        std::optional<double> d = s.type == ParamType::RealList   ? as_number(e)
                                  : e.value_exact<std::int64_t>() ? as_number(e)
                                                                  : std::nullopt;
        if (!d)
          return why = fmt::format("element {} must be {}", i,
                                   s.type == ParamType::RealList ? "a number" : "an integer"),
                 std::nullopt;
        // An integer element is kept exact, not through its double (inexact past 2^53).
        const auto exact = e.value_exact<std::int64_t>();
        if (auto r = exact ? range_problem(s, *d, std::to_string(*exact)) : range_problem(s, *d);
            !r.empty())
          return why = fmt::format("element {}: {}", i, r), std::nullopt;
        reals.push_back(*d);
        if (exact) ints.push_back(*exact);
      }
      if (s.type == ParamType::RealList) return ParamValue{reals};
      if (s.type == ParamType::IntegerList) return ParamValue{ints};
      return ParamValue{strs};
    }
  }
  return std::nullopt;
}

}  // namespace

Parameters check_section(const toml::table& table, const Schema& schema, const std::string& label,
                         std::vector<std::string>& problems,
                         const std::vector<std::string>& ignored_keys,
                         const std::vector<std::string>& other_valid_keys) {
  Parameters params;
  std::vector<std::pair<std::string, const toml::node*>> flat;
  flatten(table, "", flat);
  std::vector<std::string> valid;
  for (const auto& s : schema) valid.push_back(s.name);
  valid.insert(valid.end(), other_valid_keys.begin(), other_valid_keys.end());
  // Not a structured binding: clang before 16 (the fuzz build, scripts/fuzz) cannot capture
  // one in the lambdas below.
  for (const auto& entry : flat) {
    const std::string& key = entry.first;
    const toml::node* node = entry.second;
    // An ignored name covers a key and, when it names a sub-table, every key inside it.
    if (std::any_of(ignored_keys.begin(), ignored_keys.end(), [&](const std::string& i) {
          return key == i || key.rfind(i + ".", 0) == 0;
        }))
      continue;
    auto spec =
        std::find_if(schema.begin(), schema.end(), [&](const auto& s) { return s.name == key; });
    if (spec == schema.end()) {
      auto near = nearest(key, valid);
      std::string list;
      for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
      problems.push_back(
          fmt::format("{}: {}: unknown key '{}'{}", where(*node), label, key,
                      near.empty() ? fmt::format(" (valid keys: {})", list.empty() ? "none" : list)
                                   : fmt::format("; did you mean '{}'?", near)));
      continue;
    }
    std::string why;
    if (auto v = convert(*node, *spec, why)) {
      const auto w = where(*node);
      params.set(key, *v, w == "--set" ? Origin::CommandLine : Origin::File, w);
    } else {
      problems.push_back(fmt::format("{}: {}: key '{}' {}", where(*node), label, key, why));
    }
  }
  for (const auto& s : schema)
    if (!params.has(s.name)) params.set(s.name, s.default_value);
  for (const auto& s : schema) {
    if (s.presets.empty() || s.type != ParamType::String) continue;
    const auto& chosen = params.string(s.name);
    for (const auto& [choice, defaults] : s.presets) {
      if (choice != chosen) continue;
      for (const auto& [key, value] : defaults)
        if (!params.given(key)) params.set(key, value, Origin::Default, "preset " + chosen);
    }
  }
  return params;
}

namespace {

struct RoleInfo {
  const char* section;
  PluginKind kind;
  bool required;
};

}  // namespace

const Schema& linear_solver_core_schema() {
  static const Schema s{
      ParamSpec::string("fallback", "",
                        "CPU linear solver used when this one finds no device (empty: fail)"),
      ParamSpec::real("max_conversion_mib", 2048.0,
                      "largest operator (MiB) the core may build when it converts the "
                      "operator to a storage the solver uses (CSR to dense or banded)")
          .above(0.0),
      ParamSpec::boolean("verify_residual", true,
                         "compute ||b - Ax|| / ||b|| after every solve of a solver that reports "
                         "none (the direct solvers): one matrix-vector product per solve"),
      ParamSpec::integer("monitor", 0,
                         "log the iteration and its relative residual every this many "
                         "iterations while an iterative solver runs (0: only the summary "
                         "after each solve)")
          .at_least(0),
  };
  return s;
}

SolverPolicy solver_policy_of(const Parameters& core) {
  SolverPolicy policy;
  policy.conversion.max_bytes = std::size_t(core.real("max_conversion_mib") * double(1 << 20));
  policy.verify_residual = core.boolean("verify_residual");
  // As PETSc's -ksp_monitor: a long solve shows how it goes while it runs.
  if (const auto every = core.integer("monitor"); every > 0)
    policy.on_iteration = [every, log = core_logger()](std::int64_t k, double residual) {
      if (k > 0 && k % every == 0) log->info("  iteration {:>6}: relative residual {:.6e}", k, residual);
    };
  return policy;
}

namespace {

std::vector<std::string> core_keys(const Schema& schema) {
  std::vector<std::string> keys;
  for (const auto& spec : schema) keys.push_back(spec.name);
  return keys;
}

bool is_plugin_name(const PluginRegistry& registry, PluginKind kind, const std::string& name) {
  const auto names = registry.names(kind);
  return std::find(names.begin(), names.end(), name) != names.end();
}

// A role's section may hold settings for several plugins side by side, one sub-table each
// ([linear_solver.bicgstab], [linear_solver.matm]), so switching `type` is one line: the
// chosen plugin's sub-table is applied over the section's own keys (it is the more specific);
// every other plugin's sub-table is checked against that plugin's schema, so a typo in it is
// found now rather than on the day that plugin is chosen. Returns the sub-table names, which
// the section's own check skips, and the chosen plugin's sub-table (or null).
std::pair<std::vector<std::string>, const toml::table*> type_settings(
    const toml::table& section, PluginRegistry& registry, const RoleInfo& role,
    const std::string& chosen, std::vector<std::string>& problems) {
  std::vector<std::string> names;
  const toml::table* own = nullptr;
  for (const auto& [k, v] : section) {
    const std::string key(k.str());
    if (!v.is_table() || !is_plugin_name(registry, role.kind, key)) continue;
    names.push_back(key);
    if (key == chosen) {
      own = v.as_table();
      continue;
    }
    check_section(*v.as_table(), registry.find(key, role.kind).descriptor->schema(),
                  fmt::format("[{}.{}] ({} '{}')", role.section, key, to_string(role.kind), key),
                  problems);
  }
  return {names, own};
}

// The input files a plugin's schema marks (ParamSpec::reads_file): a relative path is
// relative to the folder of the configuration file that wrote it, as a user reading the
// file expects wherever the command is started (from --set: to the working directory, as
// any path on a command line); the plugin gets the path absolute, and config.toml records
// it so, so that a run folder reruns from anywhere. A file that cannot be opened is refused
// here, at its key, with the system's reason: validate and run refuse it alike.
// A shipped mesh is not shipped as a mesh: scripts/make-meshes writes NAME-LEVEL.msh from
// meshes/NAME.geo, which lies beside config/ in the source tree and in share/solvent. For a
// missing file of that name whose .geo is there, the command that makes it; else nothing.
std::string how_to_make(const fs::path& missing, const fs::path& config_dir) {
  if (missing.extension() != ".msh" || fs::exists(missing)) return {};
  const auto stem = missing.stem().string();
  const auto dash = stem.rfind('-');
  if (dash == std::string::npos || dash == 0) return {};
  const auto name = stem.substr(0, dash);
  for (const auto& dir : {config_dir, config_dir.parent_path()}) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / "meshes" / (name + ".geo"), ec)) continue;
    // The script of that tree by its full path, which runs from any folder.
    const auto script = dir / "scripts" / "make-meshes";
    return fmt::format(" (a shipped mesh: make it with `{} -o {} {}`, which needs gmsh)",
                       fs::is_regular_file(script, ec) ? script.string() : "scripts/make-meshes",
                       missing.parent_path().string(), name);
  }
  return {};
}

void resolve_input_files(const Schema& schema, const fs::path& config_dir,
                         const std::string& label, Parameters& params,
                         std::vector<std::string>& problems) {
  for (const auto& spec : schema) {
    if (!spec.reads_file || spec.type != ParamType::String || !params.has(spec.name)) continue;
    const auto entry = params.entries().at(spec.name);
    const auto& value = std::get<std::string>(entry.value);
    const auto colon = value.find(':');
    if (value.empty() || (colon != std::string::npos && value.find('/') > colon)) continue;
    fs::path path = value;
    if (path.is_relative())
      path = (entry.origin == Origin::CommandLine ? fs::current_path() : config_dir) / path;
    path = path.lexically_normal();
    std::string why;
    std::error_code ec;
    if (fs::is_directory(path, ec))
      why = "it is a folder";
    else if (const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC); fd < 0)
      why = std::strerror(errno);
    else
      ::close(fd);
    if (!why.empty()) {
      // Only a value that was written has no default to fall back on, so `where` is known.
      problems.push_back(fmt::format("{}: {}: key '{}': cannot open {}: {}{}", entry.where, label,
                                     spec.name, path.string(), why,
                                     how_to_make(path, config_dir)));
      continue;
    }
    params.set(spec.name, path.string(), entry.origin, entry.where);
  }
}

std::optional<ResolvedRole> resolve_role(const ConfigDocument& doc, PluginRegistry& registry,
                                         const RoleInfo& role, std::vector<std::string>& problems,
                                         const std::vector<std::string>& core_keys) {
  const auto* node = doc.table.get(role.section);
  if (node == nullptr) {
    if (role.required)
      problems.push_back(fmt::format("{}: missing section [{}] (available {} plugins: {})",
                                     doc.file.string(), role.section, to_string(role.kind),
                                     fmt::join(registry.names(role.kind), ", ")));
    return std::nullopt;
  }
  const auto* table = node->as_table();
  if (table == nullptr) {
    problems.push_back(fmt::format("{}: [{}] must be a table", where(*node), role.section));
    return std::nullopt;
  }
  const auto* type = table->get("type");
  if (type == nullptr || !type->is_string()) {
    // An optional section is switched off by type = "none" (--set preconditioner.type=none);
    // `--set preconditioner.type=` removes the key and lands here, so say how.
    problems.push_back(fmt::format("{}: [{}]: missing string key 'type' (available: {}{})",
                                   where(*node), role.section,
                                   fmt::join(registry.names(role.kind), ", "),
                                   role.required ? "" : "; \"none\" turns the section off"));
    return std::nullopt;
  }
  ResolvedRole r;
  r.type = type->value<std::string>().value();
  r.where = where(*type);
  // An optional role switched off: `type = "none"` (also as --set preconditioner.type=none
  // over a file that configures one); the section's other keys are then not read.
  if (!role.required && r.type == "none") return std::nullopt;
  try {
    r.plugin = &registry.find(r.type, role.kind);
  } catch (const PluginError& e) {
    problems.push_back(fmt::format("{}: [{}]: {}", where(*type), role.section, e.what()));
    return std::nullopt;
  }
  // The section's keys are the plugin's and the core's together: a misspelt core key
  // (fallbak) is suggested from both, and both are listed.
  auto core = core_keys;
  core.insert(core.begin(), "type");
  auto ignored = core;
  const std::string chosen = r.plugin->descriptor->name;
  const std::string label =
      fmt::format("[{}] ({} '{}')", role.section, to_string(role.kind), chosen);
  const auto [subtables, own] = type_settings(*table, registry, role, chosen, problems);
  ignored.insert(ignored.end(), subtables.begin(), subtables.end());
  const auto& schema = r.plugin->descriptor->schema();
  r.params = check_section(*table, schema, label, problems, ignored, core);
  if (own) {
    const auto specific = check_section(
        *own, schema, fmt::format("[{}.{}] ({} '{}')", role.section, chosen, to_string(role.kind), chosen),
        problems);
    // The sub-table is more specific than the section, but a --set on the command line
    // wins over anything the file says, wherever the file says it.
    for (const auto& [key, e] : specific.entries()) {
      if (!specific.given(key)) continue;
      const auto mine = r.params.entries().find(key);
      const bool overridden = mine != r.params.entries().end() &&
                              mine->second.origin == Origin::CommandLine &&
                              e.origin != Origin::CommandLine;
      if (!overridden) r.params.set(key, e.value, e.origin, e.where);
    }
  }
  resolve_input_files(schema, fs::absolute(doc.file).parent_path(), label, r.params, problems);
  return r;
}

toml::array to_toml_array(const ParamValue& v) {
  toml::array a;
  std::visit(
      [&](const auto& x) {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, std::vector<double>> ||
                      std::is_same_v<X, std::vector<std::int64_t>> ||
                      std::is_same_v<X, std::vector<std::string>>)
          for (const auto& e : x) a.push_back(e);
      },
      v);
  return a;
}

void insert_value(toml::table& t, const std::string& dotted, const ParamValue& v) {
  auto dot = dotted.find('.');
  if (dot != std::string::npos) {
    auto head = dotted.substr(0, dot);
    auto* sub = t.get(head);
    if (sub == nullptr) sub = &t.insert(head, toml::table{}).first->second;
    insert_value(*sub->as_table(), dotted.substr(dot + 1), v);
    return;
  }
  std::visit(
      [&](const auto& x) {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, bool> || std::is_same_v<X, std::int64_t> ||
                      std::is_same_v<X, double> || std::is_same_v<X, std::string>)
          t.insert_or_assign(dotted, x);
        else
          t.insert_or_assign(dotted, to_toml_array(v));
      },
      v);
}

toml::table params_table(const Parameters& p) {
  toml::table t;
  for (const auto& [k, e] : p.entries()) insert_value(t, k, e.value);
  return t;
}

// Whether `dir` is `root` or inside it, links resolved.
bool is_within(const fs::path& dir, const fs::path& root) {
  auto resolved = [](const fs::path& p) {
    std::error_code ec;
    auto r = fs::weakly_canonical(p, ec).lexically_normal();
    return r.has_filename() ? r : r.parent_path();
  };
  const auto d = resolved(dir), r = resolved(root);
  return std::mismatch(r.begin(), r.end(), d.begin(), d.end()).first == r.end();
}

// [plugins] path, resolved: a relative folder is relative to the config file's folder, and
// is stored absolute in `plugins`, so the resolved config written beside the results finds
// the same folders when it is run again from there. Loading a plugin runs its code, so a
// folder outside the config's own folder and outside Solvent's is named in a warning.
std::vector<fs::path> config_plugin_path(const ConfigDocument& doc, Parameters& plugins) {
  const auto base = fs::absolute(doc.file).parent_path();
  std::vector<fs::path> dirs;
  std::vector<std::string> written;
  for (const auto& p : plugins.strings("path")) {
    dirs.push_back((base / p).lexically_normal());
    written.push_back(dirs.back().string());
  }
  const auto entry = plugins.entries().at("path");
  for (const auto& d : dirs)
    if (!is_within(d, base) && !is_within(d, solvent_root()))
      core_logger()->warn(
          "{}: [plugins] path adds {}, outside this configuration's folder and outside "
          "Solvent's ({}): loading a plugin runs its code, so trust this configuration as you "
          "would trust code",
          entry.where.empty() ? doc.file.string() : entry.where, d.string(),
          solvent_root().string());
  plugins.set("path", written, entry.origin, entry.where);
  return dirs;
}

}  // namespace

const std::vector<std::string>& config_sections() {
  static const std::vector<std::string> sections{
      "run", "plugins", "model", "integrator", "linear_solver", "preconditioner", "output"};
  return sections;
}

ResolvedConfig resolve_config(const ConfigDocument& doc) {
  std::vector<std::string> problems;
  ResolvedConfig cfg;
  cfg.file = doc.file;
  const auto& sections = config_sections();
  for (const auto& [k, v] : doc.table) {
    const std::string key(k.str());
    if (std::find(sections.begin(), sections.end(), key) != sections.end()) continue;
    auto near = nearest(key, sections);
    problems.push_back(
        fmt::format("{}: unknown section [{}]{}", where(v), key,
                    near.empty() ? fmt::format(" (valid sections: {})", fmt::join(sections, ", "))
                                 : fmt::format("; did you mean [{}]?", near)));
  }
  auto core_section = [&](const char* name, const Schema& schema) {
    const auto* n = doc.table.get(name);
    static const toml::table empty;
    const toml::table* t = n ? n->as_table() : &empty;
    if (t == nullptr) {
      problems.push_back(fmt::format("{}: [{}] must be a table", where(*n), name));
      t = &empty;
    }
    return check_section(*t, schema, fmt::format("[{}]", name), problems);
  };
  cfg.run = core_section("run", run_schema());
  // Process-wide (see <solvent/memory.hpp>): the plugins this configuration creates check
  // their estimates against it.
  set_memory_cap(cfg.run.real("max_memory_gib") * 1024.0 * 1024.0 * 1024.0);
  // The name becomes a folder under out/: a name, never a path out of it.
  if (const auto& name = cfg.run.string("name");
      name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    const auto& entry = cfg.run.entries().at("name");
    problems.push_back(fmt::format(
        "{}: [run] name '{}' is used as a folder name under out/: it must be a plain name (no "
        "'/', not '.' or '..'); choose the folder itself with [output] directory or --output",
        entry.where.empty() ? doc.file.string() : entry.where, name));
  }
  cfg.plugins = core_section("plugins", plugins_schema());
  cfg.output = core_section("output", output_schema());
  // [output] directory, as the input files: a relative folder written in the file is
  // relative to the file's folder (a run writes beside its configuration wherever the command
  // is started), one given by --set to the working directory; recorded absolute.
  if (const auto entry = cfg.output.entries().at("directory");
      entry.origin != Origin::Default && !std::get<std::string>(entry.value).empty()) {
    fs::path dir = std::get<std::string>(entry.value);
    if (dir.is_relative())
      dir = (entry.origin == Origin::CommandLine ? fs::current_path()
                                                 : fs::absolute(doc.file).parent_path()) /
            dir;
    cfg.output.set("directory", dir.lexically_normal().string(), entry.origin, entry.where);
  }

  std::vector<fs::path> search = config_plugin_path(doc, cfg.plugins);
  for (auto& d : PluginRegistry::default_search_path()) search.push_back(std::move(d));
  cfg.registry = std::make_unique<PluginRegistry>(search);

  cfg.model = resolve_role(doc, *cfg.registry, {"model", PluginKind::Model, true}, problems, {});
  cfg.integrator =
      resolve_role(doc, *cfg.registry, {"integrator", PluginKind::Integrator, true}, problems, {});
  cfg.linear_solver =
      resolve_role(doc, *cfg.registry, {"linear_solver", PluginKind::LinearSolver, false}, problems,
                   core_keys(linear_solver_core_schema()));
  cfg.preconditioner = resolve_role(
      doc, *cfg.registry, {"preconditioner", PluginKind::Preconditioner, false}, problems, {});
  if (cfg.linear_solver) {
    const auto* t = doc.table.get("linear_solver")->as_table();
    toml::table only_core;
    for (const auto& key : core_keys(linear_solver_core_schema()))
      if (const auto* f = t->get(key)) only_core.insert(key, *f);
    cfg.solver_core = check_section(only_core, linear_solver_core_schema(), "[linear_solver]", problems);
    cfg.fallback = cfg.solver_core.string("fallback");
    if (!cfg.fallback.empty()) {
      try {
        ResolvedRole fb;
        fb.type = cfg.fallback;
        fb.plugin = &cfg.registry->find(cfg.fallback, PluginKind::LinearSolver);
        // The fallback runs with its own sub-table ([linear_solver.<fallback>]) or its
        // defaults: the section's keys belong to the primary. The sub-table was checked
        // with the primary's section already.
        std::vector<std::string> reported;
        const auto* own = t->get(fb.plugin->descriptor->name);
        fb.params = check_section(own && own->is_table() ? *own->as_table() : toml::table{},
                                  fb.plugin->descriptor->schema(), "", reported);
        cfg.fallback_solver = std::move(fb);
      } catch (const PluginError& e) {
        problems.push_back(
            fmt::format("{}: [linear_solver] fallback: {}", where(*t->get("fallback")), e.what()));
      }
    }
  }
  if (!problems.empty()) throw ConfigError(problems);
  return cfg;
}

toml::table ResolvedConfig::to_toml() const {
  toml::table t;
  t.insert("run", params_table(run));
  t.insert("plugins", params_table(plugins));
  auto role = [&](const char* name, const std::optional<ResolvedRole>& r) {
    if (!r) return;
    auto sec = params_table(r->params);
    sec.insert("type", r->type);
    if (std::string(name) == "linear_solver")
      for (const auto& [k, e] : solver_core.entries()) insert_value(sec, k, e.value);
    t.insert(name, std::move(sec));
  };
  role("model", model);
  role("integrator", integrator);
  role("linear_solver", linear_solver);
  role("preconditioner", preconditioner);
  t.insert("output", params_table(output));
  return t;
}

}  // namespace solvent
