#include "io/output_manifest.hpp"

#include "sdk/write_listener.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace solvent {

namespace {
std::mutex manifest_mutex;
std::vector<std::filesystem::path> manifest;

// Installed as the library loads: every file the SDK's writers complete, in any run of this
// process, is noted here.
const bool listening = [] {
  set_write_listener(&note_written);
  return true;
}();
}  // namespace

void note_written(const std::filesystem::path& path) {
  std::lock_guard lock(manifest_mutex);
  if (std::find(manifest.begin(), manifest.end(), path) == manifest.end())
    manifest.push_back(path);
}

std::vector<std::filesystem::path> written_files() {
  std::lock_guard lock(manifest_mutex);
  return manifest;
}

}  // namespace solvent
