// The time steppers' checkpoint reader (solvent/io/checkpoint.hpp: the IMEX steppers',
// implicit-stencil7's) on arbitrary bytes: a damaged checkpoint may be refused only with
// InputError (anything else escapes and libFuzzer reports it), and one it accepts holds what
// the run asked for. The first input byte picks the vector length and count the reader is
// asked to expect, so shapes that match and shapes that do not are both reached.
#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>

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
               ("solvent-fuzz-checkpoint-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir / "checkpoint.bin";
  }();
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const solvent::CheckpointShape shape{"imex-trapezoid", 0.01, std::size_t(data[0] % 8),
                                       std::size_t(data[0] / 8 % 8), 1};
  {
    std::ofstream out(input_file(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    solvent::checkpoint_step(input_file());
    const auto s = solvent::read_checkpoint(input_file(), shape);
    if (s.scalars.size() != shape.scalars || s.vectors.size() != shape.vectors) std::abort();
    for (const auto& v : s.vectors)
      if (v.size() != shape.n) std::abort();
  } catch (const solvent::InputError&) {
  }
  return 0;
}
