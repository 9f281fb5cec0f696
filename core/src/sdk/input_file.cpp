#include <solvent/errors.hpp>
#include <solvent/io/input_file.hpp>

#include <fstream>
#include <sstream>

namespace solvent {

std::string read_input_file(const std::filesystem::path& path) {
  // An ifstream opens a directory on Linux and then reads nothing, which a reader would
  // report as an empty file.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path.string() + ": is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open for reading");
  std::ostringstream s;
  s << in.rdbuf();
  return std::move(s).str();
}

}  // namespace solvent
