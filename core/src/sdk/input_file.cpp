#include <solvent/errors.hpp>
#include <solvent/io/input_file.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace solvent {

std::string read_input_file(const std::filesystem::path& path) {
  // An ifstream opens a directory on Linux and then reads nothing, which a reader would
  // report as an empty file.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  // The system's reason (no such file, permission denied) is what the user can act on.
  if (!in)
    throw InputError(path.string() + ": cannot open for reading" +
                     (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()));
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

}  // namespace solvent
