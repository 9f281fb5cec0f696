#include "sdk/checked_file.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace solvent {

CheckedFile::CheckedFile(std::filesystem::path path) : path_(std::move(path)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) fail("cannot create");
}

CheckedFile::~CheckedFile() {
  if (fd_ >= 0) ::close(fd_);
}

void CheckedFile::fail(const char* what) const {
  throw Error(fmt::format("{} {}: {}", what, path_.string(), std::strerror(errno)));
}

void CheckedFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;  // a regular file accepting nothing: no space left
      fail("cannot write");
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void CheckedFile::sync() {
  if (::fsync(fd_) != 0) fail("cannot write (fsync)");
}

void CheckedFile::close() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot write (close)");
}

}  // namespace solvent
