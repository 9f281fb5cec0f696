// The descriptor of the cusolver linear solver plugin.
#include "cuda/cusolver_solver.hpp"

#include <solvent/plugin.hpp>

namespace {
solvent::Schema cusolver_schema() {
  using solvent::ParamSpec;
  return {
      ParamSpec::boolean(
          "reuse_factorization", true,
          "getrf once in setup and only getrs per solve; off: copy the resident "
          "matrix and getrf again in every solve (what gepp-cuda's paper mode does)"),
      // Narrowed to CUDA's int ordinal: unbounded, 2^32 would wrap to device 0. 255 is far
      // more GPUs than one host holds; an ordinal with no device is refused at setup.
      ParamSpec::integer("device", 0, "CUDA device ordinal").at_least(0).at_most(255),
  };
}
}  // namespace

SOLVENT_PLUGIN(solvent::describe_linear_solver<solvent::dense::CusolverSolver>(
    "cusolver", "1.0.0",
    "cuSOLVER dense LU with partial pivoting (getrf/getrs), the vendor reference", &cusolver_schema,
    "cuda"))
