#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <boost/dll/runtime_symbol_info.hpp>

#include <algorithm>
#include <cstdlib>
#include <set>

namespace solvent {

namespace fs = std::filesystem;

std::vector<fs::path> PluginRegistry::default_search_path() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("SOLVENT_PLUGIN_PATH")) {
    std::string s = env;
    std::size_t start = 0;
    while (start <= s.size()) {
      auto end = s.find(':', start);
      if (end == std::string::npos) end = s.size();
      if (end > start) dirs.emplace_back(s.substr(start, end - start));
      start = end + 1;
    }
  }
  dirs.push_back(boost::dll::this_line_location().parent_path() / "solvent");
  return dirs;
}

PluginRegistry::PluginRegistry(const std::vector<fs::path>& search_path)
    : search_path_(search_path) {
  std::set<fs::path> seen;
  for (const auto& dir : search_path_) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      const auto name = e.path().filename().string();
      if (name.rfind("libsolvent-", 0) == 0 && e.path().extension() == ".so")
        files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      auto canonical = fs::weakly_canonical(f, ec);
      if (!seen.insert(canonical).second) continue;
      try {
        plugins_.push_back(load_plugin_library(canonical));
      } catch (const PluginError& e) {
        skipped_.push_back({canonical, e.what()});
      }
    }
  }
}

const PluginLibrary& PluginRegistry::find(const std::string& name_or_path, PluginKind kind) {
  const bool is_path = name_or_path.find('/') != std::string::npos;
  if (is_path) {
    std::error_code ec;
    const auto canonical = fs::weakly_canonical(name_or_path, ec);
    auto check_kind = [&](const PluginLibrary& p) -> const PluginLibrary& {
      if (p.descriptor->kind != kind)
        throw PluginError(fmt::format("{} is a {} plugin, not a {} plugin", name_or_path,
                                      to_string(p.descriptor->kind), to_string(kind)));
      return p;
    };
    for (const auto& p : plugins_)
      if (p.path == canonical) return check_kind(p);
    for (const auto& p : chosen_by_path_)
      if (p.path == canonical) return check_kind(p);
    auto lib = load_plugin_library(canonical);
    check_kind(lib);
    return chosen_by_path_.emplace_back(std::move(lib));
  }
  std::vector<const PluginLibrary*> matches;
  for (const auto& p : plugins_)
    if (p.descriptor->kind == kind && name_or_path == p.descriptor->name) matches.push_back(&p);
  if (matches.size() == 1) return *matches.front();
  if (matches.size() > 1) {
    std::string paths;
    for (const auto* m : matches) paths += "\n  " + m->path.string();
    throw PluginError(fmt::format(
        "{} plugin '{}' is provided by {} libraries:{}\nchoose one by giving its path as type",
        to_string(kind), name_or_path, matches.size(), paths));
  }
  auto valid = names(kind);
  std::string hint;
  if (auto n = nearest(name_or_path, valid); !n.empty())
    hint = fmt::format("; did you mean '{}'?", n);
  std::string list;
  for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
  throw PluginError(fmt::format("unknown {} plugin '{}'{} (available: {})", to_string(kind),
                                name_or_path, hint, list.empty() ? "none" : list));
}

std::vector<std::string> PluginRegistry::names(PluginKind kind) const {
  std::vector<std::string> out;
  for (const auto& p : plugins_)
    if (p.descriptor->kind == kind) out.emplace_back(p.descriptor->name);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {
// Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of
// two neighbours ("stpes" -> "steps") each cost one; case is ignored.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  auto same = [](char x, char y) { return std::tolower(x) == std::tolower(y); };
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}
}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = std::string::npos;
  for (const auto& c : candidates) {
    auto d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  // Close means: at most a third of the longer word changed (and at least one edit allowed).
  const std::size_t limit = std::max<std::size_t>(1, std::max(word.size(), best.size()) / 3);
  return best_d <= limit ? best : std::string{};
}

std::string_view to_string(PluginKind k) {
  switch (k) {
    case PluginKind::Model:
      return "model";
    case PluginKind::Integrator:
      return "integrator";
    case PluginKind::LinearSolver:
      return "linear_solver";
    case PluginKind::Preconditioner:
      return "preconditioner";
  }
  return "?";
}

}  // namespace solvent
