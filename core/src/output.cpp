#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include "checked_file.hpp"
#include "output_manifest.hpp"

#include <unistd.h>
#include <algorithm>
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
  write_atomically(path, [&](CheckedFile& f) { f.write(content); });
}

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(CheckedFile&)>& fill) {
  auto tmp = path;
  tmp += ".tmp." + std::to_string(::getpid());
  try {
    CheckedFile f(tmp);
    fill(f);
    f.sync();
    f.close();
  } catch (const Error&) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);  // never leave a cut-short temporary behind
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw Error("cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message());
  }
  note_written(path);
}

}  // namespace solvent
