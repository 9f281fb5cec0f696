#include <solvent/errors.hpp>
#include <solvent/input_file.hpp>

#include <unistd.h>

#include <fstream>
#include <limits>
#include <sstream>

namespace solvent {

std::string read_input_file(const std::filesystem::path& path) {
  // An ifstream opens a directory on Linux and then reads nothing, which a reader would
  // report as an empty file.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open for reading");
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

std::size_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return std::numeric_limits<std::size_t>::max();
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

}  // namespace solvent
