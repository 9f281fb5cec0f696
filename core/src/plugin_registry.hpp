#pragma once
// The plugins found on the search path: the config's [plugins] path, then
// SOLVENT_PLUGIN_PATH (colon-separated), then the `solvent` folder next to the core library.
// Every candidate file named libsolvent-*.so is loaded and its descriptor read; files
// that are not usable plugins are kept with the reason, for `solvent plugins`.
#include "plugin_library.hpp"

#include <deque>
#include <filesystem>
#include <string>
#include <vector>

namespace solvent {

struct SkippedLibrary {
  std::filesystem::path path;
  std::string reason;
};

class PluginRegistry {
 public:
  explicit PluginRegistry(const std::vector<std::filesystem::path>& search_path);

  // The default search path after any configured directories.
  static std::vector<std::filesystem::path> default_search_path();

  const std::vector<PluginLibrary>& plugins() const { return plugins_; }
  const std::vector<SkippedLibrary>& skipped() const { return skipped_; }
  const std::vector<std::filesystem::path>& search_path() const { return search_path_; }

  // `name_or_path` is a plugin name, or a path to a plugin library (to choose between
  // two plugins of the same name). Throws PluginError if there is no such plugin of this
  // kind, or if the name is ambiguous (naming both paths). The reference stays valid for
  // the registry's lifetime (the config keeps one per role).
  const PluginLibrary& find(const std::string& name_or_path, PluginKind kind);

  std::vector<std::string> names(PluginKind kind) const;

 private:
  std::vector<std::filesystem::path> search_path_;
  std::vector<PluginLibrary> plugins_;
  std::vector<SkippedLibrary> skipped_;
  // Libraries named by path that are not on the search path; a deque, so references
  // handed out earlier survive later additions.
  std::deque<PluginLibrary> chosen_by_path_;
};

// The closest of `candidates` to `word` by edit distance, or empty if none is close.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace solvent
