#include "loader/plugin_registry.hpp"

#include "log/logging.hpp"

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

fs::path install_root(const fs::path& core_dir, const fs::path& libdir) {
  fs::path root = core_dir;
  std::vector<fs::path> tail(libdir.begin(), libdir.end());
  for (auto part = tail.rbegin(); part != tail.rend(); ++part) {
    if (root.filename() != *part) return core_dir.parent_path();
    root = root.parent_path();
  }
  return tail.empty() ? core_dir.parent_path() : root;
}

fs::path solvent_root() {
  return install_root(fs::path(boost::dll::this_line_location().string()).parent_path(),
                      SOLVENT_INSTALL_LIBDIR);
}

PluginRegistry::PluginRegistry(const std::vector<fs::path>& search_path,
                               std::chrono::milliseconds load_timeout)
    : search_path_(search_path) {
  std::set<fs::path> seen;
  std::vector<fs::path> candidates;
  for (const auto& dir : search_path_) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const auto folder = fs::canonical(dir, ec);
    if (ec) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      const auto name = e.path().filename().string();
      if (name.starts_with("libsolvent-") && name.ends_with(".so")) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    // A library is named by the file found in its folder (a link, a FIFO, a device are
    // reported by their own name), and one reached twice (a folder listed twice, a link
    // to a library also listed) is read once.
    for (const auto& f : files) {
      auto target = fs::canonical(f, ec);
      if (ec) target = f;  // a link loop or a dangling link: reported when it is checked
      if (seen.insert(target).second) candidates.push_back(f);
    }
  }
  for (auto& result : probe_plugin_libraries(candidates, load_timeout)) {
    if (auto* s = std::get_if<SkippedLibrary>(&result)) {
      skipped_.push_back(std::move(*s));
      continue;
    }
    auto& info = std::get<PluginInfo>(result);
    // The first in search order wins, as in PATH: a folder put first (a config's [plugins]
    // path, SOLVENT_PLUGIN_PATH) overrides an installed copy without removing it.
    const auto first = std::find_if(plugins_.begin(), plugins_.end(), [&](const PluginInfo& p) {
      return p.kind == info.kind && p.name == info.name;
    });
    if (first != plugins_.end())
      shadowed_.push_back({std::move(info), first->path});
    else
      plugins_.push_back(std::move(info));
  }
}

const PluginLibrary& PluginRegistry::find(const std::string& name, PluginKind kind) {
  if (name.find('/') != std::string::npos)
    throw PluginError(fmt::format(
        "type '{}' is a path; plugin types are names; add the directory to [plugins] path", name));
  const auto it = std::find_if(plugins_.begin(), plugins_.end(), [&](const PluginInfo& p) {
    return p.kind == kind && p.name == name;
  });
  if (it == plugins_.end()) {
    auto valid = names(kind);
    std::string hint;
    if (auto n = nearest(name, valid); !n.empty()) hint = fmt::format("; did you mean '{}'?", n);
    std::string list;
    for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
    // A skipped library of the conventional file name is most likely the one meant.
    std::string skipped;
    for (const auto& s : skipped_)
      if (s.path.filename() == "libsolvent-" + name + ".so")
        skipped = fmt::format("; a library of that file name was skipped: {}", s.reason);
    throw PluginError(fmt::format("unknown {} plugin '{}'{} (available: {}){}", to_string(kind),
                                  name, hint, list.empty() ? "none" : list, skipped));
  }
  if (const auto l = loaded_.find(it->path); l != loaded_.end()) return l->second;
  auto lib = load_plugin_library(it->path);
  if (lib.descriptor->kind != kind || name != lib.descriptor->name)
    throw PluginError(
        fmt::format("{}: changed since the plugin path was read: it now provides {} plugin '{}'",
                    it->path.string(), to_string(lib.descriptor->kind), lib.descriptor->name));
  for (const auto& s : shadowed_)
    if (s.by == it->path)
      core_logger()->warn("{} plugin '{}': using {}; {}, later on the search path, is not used",
                          to_string(kind), name, it->path.string(), s.plugin.path.string());
  // A broken copy of the same library (truncated, wrong ABI) elsewhere on the path was
  // perhaps the one the user meant to run: say which file runs instead.
  for (const auto& s : skipped_)
    if (s.path.filename() == "libsolvent-" + name + ".so")
      core_logger()->warn("{} plugin '{}': using {}; {}", to_string(kind), name, it->path.string(),
                          s.reason);
  return loaded_.emplace(it->path, std::move(lib)).first->second;
}

std::vector<std::string> PluginRegistry::names(PluginKind kind) const {
  std::vector<std::string> out;
  for (const auto& p : plugins_)
    if (p.kind == kind) out.push_back(p.name);
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

}  // namespace solvent
