#include "schema_explicit_stencil3d.hpp"

#include <solvent_stencil3d/stencil_engine.hpp>

#include <iterator>

namespace solvent::stencil3d {

using solvent::ParamSpec;

solvent::Schema integrator_schema() {
  return {
      ParamSpec::real("dt", 0.001, "time step k").above(0.0),
      ParamSpec::integer("steps", 1000, "steps to take (fewer if a tip reaches model.stop_x)")
          .at_least(0),
      ParamSpec::string("device", "cpu",
                        "where the state lives and steps: cpu, cuda, auto (a GPU for each of a "
                        "host's first ranks, as many as it has GPUs; the CPU for the rest), or "
                        "one per rank (\"cuda,cpu,cpu\")"),
      // Narrowed to int for OpenMP; 4096 is above the hardware threads of any one host, so
      // a larger value is a typo rather than a request.
      ParamSpec::integer("threads", 0,
                         "CPU threads of the grid-wide checks (0: OpenMP's default, all cores)")
          .at_least(0)
          .at_most(4096),
      ParamSpec::boolean("force_dt", false,
                         "run even when dt exceeds the explicit stability limit (the "
                         "per-step guards still apply)"),
      ParamSpec::real("max_bad_probability_share", 0.2,
                      "stop (exit 6) once more than this share of the tips' movement "
                      "probabilities evaluated so far lay outside [0, 1]")
          .at_least(0.0)
          .at_most(1.0),
      ParamSpec::integer("fields_every", 0,
                         "write fields (.vti) and network (.vtp) every this many steps "
                         "(0: only at the end)")
          .at_least(0),
      ParamSpec::integer("checkpoint_every", 0,
                         "write checkpoint.bin (over ranks one file a rank) every this many "
                         "steps (0: only at the end); `solvent run --resume` continues from "
                         "the last one")
          .at_least(0),
      ParamSpec::boolean("png", true, "write network.png, the network projected on x-y"),
      ParamSpec::choice("cuda_block", field_block_names[0],
                        {std::begin(field_block_names), std::end(field_block_names)},
                        "continuous mode on CUDA: the thread block of the field update, x by y "
                        "by z threads, one a node (Darbyshire's Table 3 shapes), or z-march: "
                        "32 x 8 threads each marching along z through the whole column "
                        "(z-march) or through 16 planes (z-march-16)"),
      ParamSpec::integer("max_segments", 1 << 22, "capacity of the vessel-segment store")
          .at_least(1)
          .at_most(static_cast<double>(max_segment_capacity)),
  };
}

}  // namespace solvent::stencil3d
