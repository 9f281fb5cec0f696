#include "schema_explicit_stencil3d.hpp"

namespace solvent::stencil3d {

using solvent::ParamSpec;

solvent::Schema integrator_schema() {
  return {
      ParamSpec::real("dt", 0.001, "time step k").above(0.0),
      ParamSpec::integer("steps", 1000, "steps to take (fewer if a tip reaches model.stop_x)")
          .at_least(0),
      ParamSpec::choice("device", "cpu", {"cpu", "cuda"}, "where the state lives and steps"),
      ParamSpec::integer("threads", 0, "CPU threads (0: OpenMP's default, all cores)").at_least(0),
      ParamSpec::choice("field_kernel", "direct", {"direct", "tiled"},
                        "CUDA field update: one thread per node in block_x*y*z blocks (seed "
                        "003), or 32x8 columns marching along z with a shared-memory plane"),
      ParamSpec::integer("block_x", 16, "CUDA block shape of the field update, x").at_least(1),
      ParamSpec::integer("block_y", 4, "CUDA block shape, y").at_least(1),
      ParamSpec::integer("block_z", 4, "CUDA block shape, z").at_least(1).at_most(64),
      ParamSpec::boolean("force_dt", false,
                         "run even when dt exceeds the explicit stability limit"),
      ParamSpec::integer("fields_every", 0,
                         "write fields (.vti) and network (.vtp) every this many steps "
                         "(0: only at the end)")
          .at_least(0),
      ParamSpec::integer("checkpoint_every", 0,
                         "write checkpoint.bin every this many steps (0: only at the end)")
          .at_least(0),
      ParamSpec::boolean("png", true, "write network.png, the network projected on x-y"),
      ParamSpec::integer("max_segments", 1 << 22, "capacity of the vessel-segment store")
          .at_least(1)
          .at_most(1 << 30),
  };
}

}  // namespace solvent::stencil3d
