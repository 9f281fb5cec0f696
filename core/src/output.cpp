#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include "output_manifest.hpp"

#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <mutex>
#include <vector>

namespace solvent {

namespace {
std::mutex manifest_mutex;
std::vector<std::filesystem::path> manifest;
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

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) throw Error("cannot write " + tmp.string() + ": " + std::strerror(errno));
    f.write(content.data(), static_cast<std::streamsize>(content.size()));
    f.flush();
    if (!f) throw Error("cannot write " + tmp.string() + ": " + std::strerror(errno));
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw Error("cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message());
  }
  note_written(path);
}

}  // namespace solvent
