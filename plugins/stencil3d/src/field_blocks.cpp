// The CUDA engine's block shapes by name (host code: the integrator validates its key with
// it in every build, with or without CUDA).
#include <solvent_stencil3d/stencil_engine.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

namespace solvent::stencil3d {

FieldBlocks field_blocks(std::string_view name, std::string_view key) {
  // Columns marched whole make few blocks, one per 256 columns (300^3: 380 blocks for 132
  // SMs); in chunks of 16 planes there are nz / 16 times as many.
  if (name == "z-march") return {32, 8, 0, true};
  if (name == "z-march-16") return {32, 8, 16, true};
  for (const char* shape : field_block_names)
    if (name == shape) {
      FieldBlocks b;
      std::sscanf(shape, "%dx%dx%d", &b.x, &b.y, &b.z);
      return b;
    }
  throw solvent::ConfigError({fmt::format("{} = \"{}\" is not a block shape: one of {}", key, name,
                                          fmt::join(field_block_names, ", "))});
}

}  // namespace solvent::stencil3d
