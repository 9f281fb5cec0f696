// The CUDA engine's block shapes by name (host code: the integrator validates its key with
// it in every build, with or without CUDA).
#include <solvent_stencil3d/stencil_engine.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

namespace solvent::stencil3d {

FieldBlocks field_blocks(std::string_view name, std::string_view key) {
  if (name == "z-march") return {32, 8, 1, true};
  for (const char* shape : field_block_names)
    if (name == shape) {
      FieldBlocks b;
      std::sscanf(shape, "%dx%dx%d", &b.x, &b.y, &b.z);
      return b;
    }
  throw solvent::ConfigError({fmt::format("{} = \"{}\" is not a block shape: one of {}", key,
                                          name, fmt::join(field_block_names, ", "))});
}

}  // namespace solvent::stencil3d
