// The time steppers' checkpoint reader (solvent/io/checkpoint.hpp: the IMEX steppers',
// implicit-stencil7's) on arbitrary bytes: a damaged checkpoint may be refused only with
// InputError (anything else escapes and libFuzzer reports it), and one it accepts holds what
// the run asked for. The first input byte picks the vector length and count the reader is
// asked to expect, so shapes that match and shapes that do not are both reached.
#include "input_file.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const solvent::CheckpointShape shape{"imex-trapezoid", 0.01, std::size_t(data[0] % 8),
                                       std::size_t(data[0] / 8 % 8), 1};
  const auto file = solvent::fuzz::write_input("checkpoint", "checkpoint.bin", data + 1, size - 1);
  try {
    solvent::checkpoint_step(file);
    const auto s = solvent::read_checkpoint(file, shape);
    if (s.scalars.size() != shape.scalars || s.vectors.size() != shape.vectors) std::abort();
    for (const auto& v : s.vectors)
      if (v.size() != shape.n) std::abort();
  } catch (const solvent::InputError&) {
  }
  return 0;
}
