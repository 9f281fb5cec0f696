// The IMEX step loop's checkpoint reader on arbitrary bytes: a damaged checkpoint may be
// refused only with InputError (anything else escapes and libFuzzer reports it), and one it
// accepts holds vectors of the size the run asked for. The first input byte picks the
// state size the reader is asked to expect, so sizes that match and sizes that do not are
// both reached.
#include "src/checkpoint.hpp"

#include <solvent/errors.hpp>

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

// The reader takes a file, so each input is written to one file of this process's own.
std::filesystem::path input_file() {
  static const std::filesystem::path file = [] {
    auto dir = std::filesystem::temp_directory_path() /
               ("solvent-fuzz-imex-checkpoint-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / solvent::imex::checkpoint_name;
  }();
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::size_t n = data[0] % 8;
  {
    std::ofstream out(input_file(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    solvent::imex::checkpoint_step(input_file());
    const auto s = solvent::imex::read_checkpoint(input_file(), "imex-trapezoid", 0.01, n);
    if (s.u.size() != n || s.u_before.size() != n || s.explicit_now.size() != n ||
        s.guess.size() != n || s.half.size() != n)
      std::abort();
  } catch (const solvent::InputError&) {
  }
  return 0;
}
