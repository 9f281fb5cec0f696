// imex-batched: the imex-trapezoid scheme for B members of angiogenesis-1d at once on the CPU
// (docs/architecture.md, "Batched members"); one member alone is its single run, bit for bit.
#include "src/batched_members.hpp"

namespace {
class ImexBatched : public solvent::imex::BatchedImexIntegrator {
 public:
  explicit ImexBatched(const solvent::PluginContext& c)
      : BatchedImexIntegrator(c, "imex-batched", &solvent::imex::make_cpu_engine) {}
};
}  // namespace

SOLVENT_PLUGIN(solvent::describe_integrator<ImexBatched>(
    "imex-batched", "1.0.0",
    "IMEX trapezoid (as imex-trapezoid with banded) for a batch of angiogenesis-1d members at "
    "once, members in parallel on the CPU",
    &solvent::imex::batched_schema))
