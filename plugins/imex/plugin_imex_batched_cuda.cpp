// imex-batched-cuda: imex-batched's members advanced on one GPU — the explicit terms in one
// kernel over members and points, the B banded systems in one kernel, a thread per member
// and independent block of its rows (docs/architecture.md, "Batched members").
#include "cuda/batched_cuda.hpp"

namespace {
class ImexBatchedCuda : public solvent::imex::BatchedImexIntegrator {
 public:
  explicit ImexBatchedCuda(const solvent::PluginContext& c)
      : BatchedImexIntegrator(c, "imex-batched-cuda", &solvent::imex::make_cuda_engine) {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexBatchedCuda>(
    "imex-batched-cuda", "1.0.0",
    "IMEX trapezoid (as imex-trapezoid with banded) for a batch of angiogenesis-1d members at "
    "once on a CUDA GPU: one kernel for the explicit terms, one for the B banded solves",
    &solvent::imex::batched_schema, "cuda"))
