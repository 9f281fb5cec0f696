#include <solvent/errors.hpp>
#include <solvent/output.hpp>

#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace solvent {

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
}

}  // namespace solvent
