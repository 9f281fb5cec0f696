#include "sweep/sweep_plan.hpp"

#include "config/config_validation.hpp"
#include "loader/plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <sstream>
#include <tuple>

namespace solvent {

const Schema& sweep_schema() {
  static const Schema s{
      ParamSpec::choice("mode", "grid", {"grid", "zip", "random"},
                        "How the swept lists form the members: every combination (grid), element "
                        "by element (zip), or `samples` members drawn from [run] seed (random)"),
      ParamSpec::integer("samples", 0, "mode = \"random\": how many members to draw").at_least(0),
      ParamSpec::string("batch", "",
                        "A batched integrator (imex-batched, imex-batched-cuda) that advances the "
                        "members differing only in [model.parameters] together, in one process"),
  };
  return s;
}

namespace {

// A swept key's values before the members are formed: a list (grid, zip; random draws one
// element), or, in random mode, an interval to draw from.
struct Entry {
  SweptKey key;
  std::vector<SweptValue> values;
  bool uniform = false;
  double lo = 0, hi = 0;
};

SweptValue value_of(const toml::node& n) {
  SweptValue v;
  if (const auto d = n.value_exact<double>()) {
    // fmt's shortest round-trip form, so that the member gets the very double; TOML needs
    // a point or an exponent to read it back as a real.
    v.toml = fmt::format("{}", *d);
    if (std::isfinite(*d) && v.toml.find_first_of(".e") == std::string::npos) v.toml += ".0";
  } else {
    std::ostringstream os;
    n.visit([&](const auto& x) { os << x; });
    v.toml = os.str();
  }
  v.plain = n.is_string() ? *n.value<std::string>() : v.toml;
  return v;
}

SweptValue real_value(double d) { return value_of(toml::value<double>(d)); }

std::optional<double> number(const toml::node* n) {
  if (n == nullptr) return std::nullopt;
  if (const auto i = n->value_exact<std::int64_t>()) return double(*i);
  return n->value_exact<double>();
}

// {linspace = [lo, hi, n]}, {logspace = [lo, hi, n]} (n points from lo to hi, evenly or
// evenly in the logarithm, both ends exact), {uniform = [lo, hi]} (random mode).
void read_generator(const toml::table& t, Entry& e, std::vector<std::string>& problems) {
  const auto first = t.begin();  // its entry lives in the iterator
  const auto& kind = first->first;
  const auto& node = first->second;
  const auto* a = node.as_array();
  const auto lo = number(a ? a->get(0) : nullptr), hi = number(a ? a->get(1) : nullptr);
  auto problem = [&](const char* need) {
    problems.push_back(
        fmt::format("{}: [sweep] {}: {} = {}", e.key.where, e.key.name, kind.str(), need));
  };
  if (kind == "uniform") {
    if (!a || a->size() != 2 || !lo || !hi || !std::isfinite(*lo) || !std::isfinite(*hi) ||
        !(*lo < *hi))
      return problem("[lo, hi] needs two finite numbers, lo < hi");
    e.uniform = true;
    e.lo = *lo;
    e.hi = *hi;
    return;
  }
  const bool log = kind == "logspace";
  const auto count = a && a->size() == 3 ? a->get(2)->value_exact<std::int64_t>() : std::nullopt;
  if (!lo || !hi || !count || *count < 1 || !std::isfinite(*lo) || !std::isfinite(*hi) ||
      (log && !(*lo > 0 && *hi > 0)))
    return problem(log ? "[lo, hi, n] needs two numbers > 0 and a count n >= 1"
                       : "[lo, hi, n] needs two finite numbers and a count n >= 1");
  for (std::int64_t i = 0; i < *count; ++i) {
    const double f = *count == 1 ? 0.0 : double(i) / double(*count - 1);
    const double v = i == *count - 1 && *count > 1 ? *hi
                     : log ? std::exp(std::log(*lo) + (std::log(*hi) - std::log(*lo)) * f)
                           : *lo + (*hi - *lo) * f;
    e.values.push_back(real_value(i == 0 ? *lo : v));
  }
}

bool is_generator(const toml::table& t) {
  if (t.size() != 1) return false;
  const auto k = t.begin()->first.str();
  return k == "linspace" || k == "logspace" || k == "uniform";
}

// Every swept key under `t`, depth first.
void collect(const toml::table& t, std::vector<std::string>& path, std::vector<Entry>& out,
             std::vector<std::string>& problems) {
  for (const auto& [k, node] : t) {
    path.emplace_back(k.str());
    const auto* sub = node.as_table();
    if (sub && !is_generator(*sub)) {
      collect(*sub, path, out, problems);
      path.pop_back();
      continue;
    }
    Entry e;
    e.key.path = path;
    e.key.name = fmt::format("{}", fmt::join(path, "."));
    e.key.where = where(node);
    if (e.key.where != "--set") {
      e.key.line = node.source().begin.line;
      e.key.column = node.source().begin.column;
    }
    if (sub) {
      read_generator(*sub, e, problems);
    } else if (const auto* list = node.as_array()) {
      if (list->empty())
        problems.push_back(
            fmt::format("{}: [sweep] {}: an empty list sweeps nothing", e.key.where, e.key.name));
      for (const auto& v : *list) e.values.push_back(value_of(v));
    } else {
      problems.push_back(fmt::format(
          "{}: [sweep] {}: expected a list of values, or {{ linspace = [lo, hi, n] }}, "
          "{{ logspace = [lo, hi, n] }} or, in random mode, {{ uniform = [lo, hi] }}",
          e.key.where, e.key.name));
    }
    out.push_back(std::move(e));
    path.pop_back();
  }
}

// std::uniform_real_distribution's algorithm is the library's choice, so its draws could
// differ between standard libraries; this mapping is ours and fixed: the top 53 bits of one
// mt19937_64 output, as a fraction in [0, 1).
double unit_draw(std::mt19937_64& g) { return double(g() >> 11) * 0x1.0p-53; }

std::vector<std::vector<SweptValue>> form_members(const std::string& mode, std::int64_t samples,
                                                  std::uint64_t seed,
                                                  const std::vector<Entry>& entries) {
  std::vector<std::vector<SweptValue>> members;
  if (mode == "zip") {
    for (std::size_t i = 0; i < entries.front().values.size(); ++i) {
      auto& m = members.emplace_back();
      for (const auto& e : entries) m.push_back(e.values[i]);
    }
  } else if (mode == "grid") {
    // The first key in the file varies slowest, as the outer of nested loops.
    std::size_t count = 1;
    for (const auto& e : entries) count *= e.values.size();
    for (std::size_t i = 0; i < count; ++i) {
      auto& m = members.emplace_back(entries.size());
      std::size_t rest = i;
      for (std::size_t k = entries.size(); k-- > 0;) {
        m[k] = entries[k].values[rest % entries[k].values.size()];
        rest /= entries[k].values.size();
      }
    }
  } else {
    // Member by member, key by key in the file's order: one draw per value.
    std::mt19937_64 g(seed);
    for (std::int64_t i = 0; i < samples; ++i) {
      auto& m = members.emplace_back();
      for (const auto& e : entries) {
        const double u = unit_draw(g);
        if (e.uniform) {
          m.push_back(real_value(e.lo + (e.hi - e.lo) * u));
        } else {
          const auto n = e.values.size();
          m.push_back(e.values[std::min(n - 1, std::size_t(u * double(n)))]);
        }
      }
    }
  }
  return members;
}

// A node that where() places at (line, column) of `file`: toml++ copies no source position
// and offers no way to set one, so the value is parsed from text that puts it there.
toml::table located(const std::string& text, const SweptKey& key, const std::string& file) {
  if (key.line == 0 || key.column < 3) return toml::parse("v=" + text, std::string_view("--set"));
  const std::string placed =
      std::string(key.line - 1, '\n') + std::string(key.column - 3, ' ') + "v=" + text;
  return toml::parse(placed, std::string_view(file));
}

}  // namespace

bool has_sweep(const ConfigDocument& doc) { return doc.table.contains("sweep"); }

// Long because it reads the [sweep] table in one pass, gathering every problem of every key
// before it refuses the file, so the user sees them all at once.
SweepPlan plan_sweep(const std::filesystem::path& file, const std::vector<std::string>& overrides) {
  auto doc = load_config_document(file, overrides);
  SweepPlan plan;
  plan.file = file;
  plan.overrides = overrides;
  std::vector<std::string> problems;
  const auto* sweep = doc.table.get("sweep");
  if (sweep == nullptr)
    throw ConfigError({fmt::format("{}: no [sweep] table, so no sweep members", file.string())});
  if (!sweep->is_table())
    throw ConfigError({fmt::format("{}: [sweep] must be a table", where(*sweep))});
  plan.table = *sweep->as_table();
  plan.seed = doc.table["run"]["seed"].value_or(std::int64_t{0});
  const auto* mode = sweep->as_table()->get("mode");
  plan.mode = mode ? mode->value_or(std::string()) : "grid";
  const auto& modes = sweep_schema().front().choices;
  if (std::find(modes.begin(), modes.end(), plan.mode) == modes.end())
    problems.push_back(fmt::format("{}: [sweep] mode must be one of \"grid\", \"zip\", \"random\"",
                                   where(*mode)));
  const auto* samples_node = sweep->as_table()->get("samples");
  const auto samples =
      samples_node ? samples_node->value_exact<std::int64_t>() : std::optional<std::int64_t>(0);
  if (!samples || *samples < 0)
    problems.push_back(fmt::format("{}: [sweep] samples must be an integer >= 0",
                                   where(*samples_node)));
  else if (plan.mode == "random" && *samples < 1)
    problems.push_back(fmt::format(
        "{}: [sweep] mode \"random\" needs samples >= 1 (how many members to draw)",
        samples_node ? where(*samples_node) : where(*mode)));
  else if (plan.mode != "random" && *samples != 0)
    problems.push_back(fmt::format("{}: [sweep] samples is for mode \"random\"; mode \"{}\" takes "
                                   "its members from the lists",
                                   where(*samples_node), plan.mode));

  // batch: a batched integrator (solvent/ensemble.hpp) for the members that differ only in
  // [model.parameters] (sweep/batched_groups.hpp).
  if (const auto* batch = sweep->as_table()->get("batch")) {
    if (const auto name = batch->value<std::string>(); name && !name->empty())
      plan.batch = *name;
    else
      problems.push_back(fmt::format(
          "{}: [sweep] batch must name a batched integrator, such as \"imex-batched\"",
          where(*batch)));
  }

  // Read from `doc`'s own nodes, which know their lines (a copy of a node does not).
  std::vector<Entry> entries;
  for (const auto& [k, node] : *sweep->as_table()) {
    if (k == "mode" || k == "samples" || k == "batch") continue;
    if (const auto* t = node.as_table(); t != nullptr && !is_generator(*t)) {
      std::vector<std::string> path{std::string(k.str())};
      collect(*t, path, entries, problems);
    } else {
      problems.push_back(fmt::format(
          "{}: [sweep] {}: expected a table mirroring the configuration, such as "
          "[sweep.model.parameters]",
          where(node), k.str()));
    }
  }
  // A --set of a swept key fixes it: the sweep runs over the other keys (all of them fixed:
  // one member), so a --set is never silently replaced by the members' values.
  const bool sweeps_something = !entries.empty();
  for (const auto& o : overrides) {
    const auto key = o.substr(0, o.find('='));
    const auto fixed = std::find_if(entries.begin(), entries.end(),
                                    [&](const Entry& e) { return e.key.name == key; });
    if (fixed == entries.end()) continue;
    plan.fixed.push_back(key);
    entries.erase(fixed);
  }
  if (!sweeps_something && problems.empty())
    problems.push_back(fmt::format(
        "{}: [sweep] sweeps no key: give lists where single values would be, such as "
        "[sweep.model.parameters] k1 = [0.5, 1.0]",
        where(*sweep).starts_with("--set") ? file.string() : where(*sweep)));
  // The file's order (by line), so that the first key written varies slowest in a grid and
  // is drawn first; keys given by --set, which have no line, after those, by name.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const auto ka = std::tuple(a.key.line == 0, a.key.line, a.key.column);
    const auto kb = std::tuple(b.key.line == 0, b.key.line, b.key.column);
    return ka < kb;
  });
  const auto& sections = config_sections();
  for (const auto& e : entries) {
    const auto& section = e.key.path.front();
    if (std::find(sections.begin(), sections.end(), section) != sections.end()) continue;
    const auto near = nearest(section, sections);
    problems.push_back(fmt::format("{}: [sweep] {}: unknown section [{}]{}", e.key.where,
                                   e.key.name, section,
                                   near.empty() ? "" : fmt::format("; did you mean [{}]?", near)));
  }
  for (const auto& e : entries)
    if (e.uniform && plan.mode != "random")
      problems.push_back(fmt::format("{}: [sweep] {}: uniform draws need mode = \"random\"",
                                     e.key.where, e.key.name));
  // Lists only: an empty one, or an interval, is reported above already.
  const auto first_list = std::find_if(entries.begin(), entries.end(),
                                       [](const Entry& e) { return !e.values.empty(); });
  if (plan.mode == "zip" && first_list != entries.end())
    for (const auto& e : entries)
      if (!e.values.empty() && e.values.size() != first_list->values.size())
        problems.push_back(fmt::format(
            "{}: [sweep] {}: {} value{} where {} has {}; mode \"zip\" pairs the lists element "
            "by element, so they need one length",
            e.key.where, e.key.name, e.values.size(), e.values.size() == 1 ? "" : "s",
            first_list->key.name, first_list->values.size()));
  if (!problems.empty()) throw ConfigError(std::move(problems));

  for (const auto& e : entries) plan.keys.push_back(e.key);
  plan.members = entries.empty()
                     ? std::vector<std::vector<SweptValue>>(1)
                     : form_members(plan.mode, *samples, std::uint64_t(plan.seed), entries);
  return plan;
}

ConfigDocument member_document(const SweepPlan& plan, std::size_t index) {
  if (index >= plan.members.size())
    throw ConfigError({fmt::format("{}: the sweep has {} members; there is no member {}",
                                   plan.file.string(), plan.members.size(), index)});
  auto doc = load_config_document(plan.file, plan.overrides);
  doc.table.erase("sweep");
  std::vector<std::string> problems;
  for (std::size_t k = 0; k < plan.keys.size(); ++k) {
    const auto& key = plan.keys[k];
    toml::table* t = &doc.table;
    for (std::size_t p = 0; t != nullptr && p + 1 < key.path.size(); ++p) {
      auto* next = t->get(key.path[p]);
      if (next == nullptr) next = &t->insert(key.path[p], toml::table{}).first->second;
      t = next->as_table();
    }
    if (t == nullptr) {
      problems.push_back(fmt::format("{}: [sweep] {}: the configuration's value there is not a table",
                                     key.where, key.name));
      continue;
    }
    auto value = located(plan.members[index][k].toml, key, plan.file.string());
    t->insert_or_assign(key.path.back(), std::move(*value.get("v")));
  }
  if (!problems.empty()) throw ConfigError(std::move(problems));
  return doc;
}

}  // namespace solvent
