#pragma once
// The plugins found on the search path: the config's [plugins] path, then
// SOLVENT_PLUGIN_PATH (colon-separated), then the `solvent` folder next to the core library.
// Every candidate file named libsolvent-*.so has its descriptor read by a child process
// (probe_plugin_libraries), so scanning the path runs no plugin code in this process; only
// a plugin that is asked for by name is loaded here. Files that are not usable plugins are
// kept with the reason, and libraries shadowed by an earlier one of the same kind and name,
// for `solvent plugins`.
#include "loader/plugin_library.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace solvent {

// A library whose kind and name a library earlier on the search path already provides.
struct ShadowedLibrary {
  PluginInfo plugin;
  std::filesystem::path by;  // the library used instead
};

class PluginRegistry {
 public:
  explicit PluginRegistry(const std::vector<std::filesystem::path>& search_path,
                          std::chrono::milliseconds load_timeout = std::chrono::seconds(10));

  // The default search path after any configured directories.
  static std::vector<std::filesystem::path> default_search_path();

  // The usable plugins, in search order: the first library of each kind and name.
  const std::vector<PluginInfo>& plugins() const { return plugins_; }
  const std::vector<SkippedLibrary>& skipped() const { return skipped_; }
  const std::vector<ShadowedLibrary>& shadowed() const { return shadowed_; }
  const std::vector<std::filesystem::path>& search_path() const { return search_path_; }

  // The plugin of this kind named `name` (a `type`), loaded into this process on the first
  // call. Throws PluginError if `name` is a path, if there is no such plugin of this kind,
  // or if loading it here fails. The reference stays valid for the registry's lifetime (the
  // config keeps one per role).
  const PluginLibrary& find(const std::string& name, PluginKind kind);

  std::vector<std::string> names(PluginKind kind) const;

 private:
  std::vector<std::filesystem::path> search_path_;
  std::vector<PluginInfo> plugins_;
  std::vector<SkippedLibrary> skipped_;
  std::vector<ShadowedLibrary> shadowed_;
  std::map<std::filesystem::path, PluginLibrary> loaded_;  // a map: references stay valid
};

// The install prefix, or the build tree: the folder holding libsolvent-core without the
// library folder it lies in (install_root).
std::filesystem::path solvent_root();

// The root above `core_dir`, the folder of libsolvent-core: `core_dir` less `libdir` (the
// install's CMAKE_INSTALL_LIBDIR, two folders deep on a multiarch system: lib/x86_64-linux-gnu)
// where it ends so, else its parent (a build tree keeps the core in lib/).
std::filesystem::path install_root(const std::filesystem::path& core_dir,
                                   const std::filesystem::path& libdir);

// The closest of `candidates` to `word` by edit distance, or empty if none is close.
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace solvent
