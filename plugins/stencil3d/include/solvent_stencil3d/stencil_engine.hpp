#pragma once
// An engine advances a SimulationState in its own memory (host or device): load once,
// step many times, read the counters each step (a few bytes), store when output or a
// checkpoint is due.
#include <solvent_stencil3d/network_counters.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace solvent::stencil3d {

// Seconds spent in the two phases of a step, summed over the steps timed.
struct PhaseSeconds {
  double field = 0.0;  // n on every node
  double tips = 0.0;   // tip phase and f, c on vessel nodes
};

class StencilEngine {
 public:
  virtual ~StencilEngine() = default;
  virtual void load(const SimulationState& s) = 0;
  // Advances from step s.step to s.step + 1 (the step number keys the random numbers).
  virtual void step() = 0;
  virtual NetworkCounters counters() = 0;
  // Copies fields, tips and network back; the parameters and step come from load/step.
  virtual void store(SimulationState& s) = 0;
  // Runs `count` steps timing each phase (device events on CUDA); used by the benchmark.
  virtual PhaseSeconds timed_steps(std::int64_t count) = 0;
  virtual std::string device_name() const = 0;
};

std::unique_ptr<StencilEngine> make_cpu_engine(int threads);

// The CUDA field update: `direct` is Darbyshire's kernel, one thread per node in 3D blocks
// of the given shape; `tiled` marches 32 x 8 columns of threads along z through chunks of
// 32 planes, keeping each column's z-neighbours in registers and the plane's x and y
// neighbours in shared memory (the block shape does not apply to it).
enum class FieldKernel { Direct, Tiled };
using BlockShape = std::array<int, 3>;
// Throws solvent::DeviceUnavailable when no CUDA device can be used.
std::unique_ptr<StencilEngine> make_cuda_engine(BlockShape block,
                                                FieldKernel kernel = FieldKernel::Direct);

}  // namespace solvent::stencil3d
