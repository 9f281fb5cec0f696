#pragma once
// A file written through POSIX calls whose every result is checked: a short or failed write
// (a full disk, a quota, an I/O error) throws solvent::Error naming the path and the OS's
// reason, at the write that failed. std::ofstream reports such failures only as a stream
// state that is easy to leave unchecked, and without errno.
#include <filesystem>
#include <functional>
#include <string_view>

namespace solvent {

class CheckedFile {
 public:
  // Creates or truncates `path` for writing.
  explicit CheckedFile(std::filesystem::path path);
  ~CheckedFile();
  CheckedFile(const CheckedFile&) = delete;
  CheckedFile& operator=(const CheckedFile&) = delete;

  void write(std::string_view bytes);
  // Forces the bytes to the disk, so that a rename after it never exposes a file whose
  // content a crash or power loss could still cut short.
  void sync();
  // Closes, reporting an error the kernel only gives at close (NFS, some quotas).
  void close();
  const std::filesystem::path& path() const { return path_; }

 private:
  [[noreturn]] void fail(const char* what) const;
  std::filesystem::path path_;
  int fd_ = -1;
};

// write_file_atomic (solvent/io/output.hpp) for content too large to hold as one string: `fill`
// writes the file piece by piece into a temporary, which is synced and renamed into place.
void write_atomically(const std::filesystem::path& path,
                      const std::function<void(CheckedFile&)>& fill);

}  // namespace solvent
