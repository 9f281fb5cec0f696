// explicit-stencil3d's checkpoint reader (solvent_stencil3d/simulation_state.hpp: the SDK's
// time-stepper checkpoint, with the stencil's layout in its scalars) on arbitrary bytes: a
// damaged checkpoint may be refused only with InputError (anything else escapes and
// libFuzzer reports it), and one it accepts holds a network the engines can index. Random
// bytes rarely pass the SDK's checksum, which fuzz-checkpoint covers, so the first input byte
// picks how the rest is used: even, it is the file; odd, it is written over the scalars and
// the owner field of a valid checkpoint of a 5^3 grid, from the offset the next two bytes
// give, (bit 1) the scalars end where it ends, and the file is sealed again with its
// checksum, so that every value behind the SDK's header is reached, damaged and cut short.
#include "input_file.hpp"

#include <solvent/errors.hpp>
#include <solvent/io/checkpoint.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

namespace a3 = solvent::angiogenesis_3d;

constexpr double dt = 0.001;
constexpr std::uint64_t seed = 7;
constexpr const char* writer = "explicit-stencil3d (hybrid)";

a3::Parameters small_model() {
  a3::Parameters p{};
  p.nx = p.ny = p.nz = 5;
  p.h = 0.25;
  p.c_width = p.f_width = p.n_width = 0.1;
  p.f_amplitude = 1.0;
  p.tip_ny = p.tip_nz = 1;
  p.tip_y[0] = p.tip_z[0] = 0.5;
  p.max_tips = 4;
  p.mode = a3::Mode::Hybrid;
  return p;
}

// A valid checkpoint of the small model's initial state, as the SDK reads it back.
solvent::StepperCheckpoint valid_checkpoint(const a3::Parameters& p) {
  const auto dir = solvent::fuzz::write_input("stencil-checkpoint-valid", "checkpoint.bin", "", 0)
                       .parent_path();
  solvent::stencil3d::write_checkpoint(dir, solvent::stencil3d::initial_state(p, dt, seed, 6),
                                       solvent::single_rank());
  return solvent::read_checkpoint(dir / "checkpoint.bin",
                                  {writer, dt, std::size_t(a3::grid_of(p).size()), 3,
                                   solvent::any_count});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const a3::Parameters p = small_model();
  static const solvent::StepperCheckpoint valid = valid_checkpoint(p);
  std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 1 && size >= 3) {
    auto ck = valid;
    auto& owner = ck.vectors.back();
    const std::size_t scalar_bytes = ck.scalars.size() * sizeof(double);
    std::string body(scalar_bytes + owner.size() * sizeof(double), '\0');
    std::memcpy(body.data(), ck.scalars.data(), scalar_bytes);
    std::memcpy(body.data() + scalar_bytes, owner.data(), body.size() - scalar_bytes);
    const std::size_t at = (data[1] | std::size_t(data[2]) << 8) % body.size();
    const std::string patch = bytes.substr(2);
    body.replace(at, std::min(patch.size(), body.size() - at), patch);
    std::memcpy(ck.scalars.data(), body.data(), scalar_bytes);
    std::memcpy(owner.data(), body.data() + scalar_bytes, body.size() - scalar_bytes);
    if ((data[0] & 2) && at + patch.size() < scalar_bytes)
      ck.scalars.resize((at + patch.size()) / sizeof(double));
    bytes = solvent::checkpoint_bytes(ck, writer, dt);
  }
  const auto file = solvent::fuzz::write_input("stencil-checkpoint", "checkpoint.bin", bytes.data(),
                                               bytes.size());
  try {
    solvent::stencil3d::checkpoint_step(file.parent_path());
    const auto grid = solvent::stencil3d::whole_grid(a3::grid_of(p));
    const auto s = solvent::stencil3d::restore_checkpoint(file.parent_path(), p, dt, seed, grid,
                                                          grid, solvent::single_rank());
    const auto nodes = std::int32_t(a3::grid_of(p).size());
    if (s.f.size() != std::size_t(nodes) || s.owner.size() != std::size_t(nodes) ||
        s.counters.tips < 0 || std::size_t(s.counters.tips) > s.node.size())
      std::abort();
    for (std::int32_t t = 0; t < s.counters.tips; ++t)
      if (s.node[std::size_t(t)] < 0 || s.node[std::size_t(t)] >= nodes) std::abort();
    for (const auto o : s.owner)
      if (o < -1 || o >= std::int32_t(s.node.size())) std::abort();
  } catch (const solvent::InputError&) {
  }
  return 0;
}
