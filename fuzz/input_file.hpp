#pragma once
// The targets whose reader takes a file write each input to one: a file in a folder of the
// fuzzing process's own, so that several fuzzers (or a fuzzer's -jobs) can run at once.
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>

namespace solvent::fuzz {

// Writes `size` bytes at `data` to the file `name` of this process's folder for `target`
// (made on first use) and returns its path.
inline std::filesystem::path write_input(const std::string& target, const std::string& name,
                                         const void* data, std::size_t size) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("solvent-fuzz-" + target + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return file;
}

}  // namespace solvent::fuzz
