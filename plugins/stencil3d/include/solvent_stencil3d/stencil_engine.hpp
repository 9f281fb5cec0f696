#pragma once
// An engine advances a SimulationState in its own memory (host or device): load once,
// step many times, read the counters each step (a few bytes), store when output or a
// checkpoint is due. Over several ranks (comm) each rank's engine holds the part of the
// state its rank was given (SimulationState::window, block), and every rank steps together.
#include <solvent_stencil3d/network_counters.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace solvent::stencil3d {

class StencilEngine {
 public:
  virtual ~StencilEngine() = default;
  virtual void load(const SimulationState& s) = 0;
  // Advances from step s.step to s.step + 1 (the step number keys the random numbers).
  virtual void step() = 0;
  virtual NetworkCounters counters() = 0;
  // Copies fields, tips and network back; the parameters and step come from load/step.
  virtual void store(SimulationState& s) = 0;
  // Runs `count` steps and returns their seconds (device events on CUDA); used by the
  // benchmark.
  virtual double timed_steps(std::int64_t count) = 0;
  virtual std::string device_name() const = 0;
};

// `blocks`: the ranks' blocks of the grid, which the continuous mode needs over several
// ranks (to know its neighbours); the state's window then holds one node around the block.
std::unique_ptr<StencilEngine> make_cpu_engine(const Communicator& comm = single_rank(),
                                               const GridBlocks* blocks = nullptr);

// The thread blocks of the CUDA engine's field update (continuous mode): x × y × z threads
// a block, one a node (Darbyshire's Table 3 shapes), or z_march: a tile of x × y threads,
// each marching along z through z planes of its column (0: the whole column).
struct FieldBlocks {
  int x = 16, y = 4, z = 4;
  bool z_march = false;
};

// The values of the integrator's `cuda_block` key; the first is the default.
inline constexpr const char* field_block_names[] = {"16x4x4", "4x4x4",   "16x16x4",   "16x8x4",
                                                    "64x4x4", "z-march", "z-march-16"};

// One of field_block_names; anything else is a solvent::ConfigError naming `key`.
FieldBlocks field_blocks(std::string_view name, std::string_view key);

// Throws solvent::DeviceUnavailable when no CUDA device can be used. Over several ranks
// it takes GPU local_rank % (GPUs on the host); `grid_blocks` as for make_cpu_engine. The
// continuous mode over ranks moves the layer around each block GPU to GPU where
// `every_rank_cuda` (every rank of comm makes a CUDA engine: the choice of the path is
// collective) and the ranks share a host, else through host memory; the block's interior
// is updated meanwhile on a stream of its own, with any FieldBlocks shape.
std::unique_ptr<StencilEngine> make_cuda_engine(const Communicator& comm = single_rank(),
                                                FieldBlocks blocks = {},
                                                const GridBlocks* grid_blocks = nullptr,
                                                bool every_rank_cuda = false);

}  // namespace solvent::stencil3d
