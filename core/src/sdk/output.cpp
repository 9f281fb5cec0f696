#include <solvent/errors.hpp>
#include <solvent/io/output.hpp>

#include "sdk/checked_file.hpp"
#include "sdk/write_listener.hpp"

#include <unistd.h>
#include <atomic>

namespace solvent {

namespace {
// Constant-initialised, so a listener installed during static initialisation is kept.
std::atomic<WriteListener> listener{nullptr};
}  // namespace

void set_write_listener(WriteListener l) { listener.store(l); }

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  write_atomically(path, [&](CheckedFile& f) { f.write(content); });
}

void write_atomically(const std::filesystem::path& path,
                      const std::function<void(CheckedFile&)>& fill) {
  auto tmp = path;
  // Unique to the process and the thread: threads of one process may write files of the same
  // name (runs embedded side by side), and a shared temporary would be renamed from under one.
  static std::atomic<unsigned> serial{0};
  tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(serial++);
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
    const std::string why = ec.message();  // before remove() resets ec
    std::filesystem::remove(tmp, ec);
    throw Error("cannot rename " + tmp.string() + " to " + path.string() + ": " + why);
  }
  if (const WriteListener l = listener.load()) l(path);
}

}  // namespace solvent
