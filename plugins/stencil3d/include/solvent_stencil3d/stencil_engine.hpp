#pragma once
// An engine advances a SimulationState in its own memory (host or device): load once,
// step many times, read the counters each step (a few bytes), store when output or a
// checkpoint is due. Over several ranks (comm) each rank's engine holds the part of the
// state its rank was given (SimulationState::window, block), and every rank steps together.
#include <solvent_stencil3d/network_counters.hpp>
#include <solvent_stencil3d/simulation_state.hpp>

#include <solvent/communicator.hpp>

#include <cstdint>
#include <memory>
#include <string>

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

std::unique_ptr<StencilEngine> make_cpu_engine(const Communicator& comm = single_rank());

// Throws solvent::DeviceUnavailable when no CUDA device can be used. Over several ranks
// it takes GPU local_rank % (GPUs on the host).
std::unique_ptr<StencilEngine> make_cuda_engine(const Communicator& comm = single_rank());

}  // namespace solvent::stencil3d
