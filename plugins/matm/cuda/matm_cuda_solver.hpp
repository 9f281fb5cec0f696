#pragma once
// `matm-cuda`: the modified alternating-triangular method (Sukhinov et al.) on one GPU, the
// operator resident on the device from setup() on; over MPI ranks, one GPU per rank
// (DeviceMatm says what crosses between them), or, by the `device` parameter, some ranks on
// the CPU (CpuBackend, which exchanges and sums as DeviceMatm does) beside ranks on GPUs.
#include "cpu/cpu_backend.hpp"
#include "cuda/device_matm.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent_matm/solver_base.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace solvent::matm::cuda {

class MatmCudaSolver final : public SolverBase {
 public:
  explicit MatmCudaSolver(const PluginContext& ctx);

  Facts facts() const override;
  // This rank's calibration (calibration.hpp): DeviceMatm's correction on its GPU, or the
  // CPU backend's on its threads.
  double measured_speed() override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  using LinearSolver::solve_impl;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;

 private:
  // On one rank the GPU is probed when first needed, so that a run without one can fall
  // back to another solver (setup's DeviceUnavailable); that needs no context.
  void probe_device();
  // The context ContextStart made, waited for, and the rank's GPU made this thread's.
  void make_current();
  // make_current, over ranks with every rank's outcome shared (collective: CPU ranks too).
  void make_current_on_every_rank();

  SweepShape shape_;
  int fragments_;
  bool pipelined_;  // coupling = "pipeline"
  const Communicator* comm_;
  bool on_gpu_ = true;         // this rank's device
  bool peer_to_peer_ = false;  // over ranks: the sweeps go GPU to GPU (DeviceMatm)
  int threads_ = 0;            // a CPU rank's OpenMP threads
  int ordinal_ = -1;           // over ranks, this rank's GPU; -1: the current device
  std::string device_name_;
  std::string devices_;  // every rank's device, "cuda, cpu, ...", over ranks
  std::unique_ptr<solvent::cuda::ContextStart> context_start_;  // null on a CPU rank
  std::unique_ptr<DeviceMatm> device_;
  std::optional<SplitStencil> split_;  // a CPU rank's operator
  double device_seconds_ = 0.0;
  // The last solve's device time by phase (PhaseClock), ms per iteration: this rank's, and
  // over ranks every rank's ("cpu" for a rank on the CPU).
  std::string phases_, phases_each_rank_;
  std::string solve_parts_;  // the last solve's upload, iterations and download, host seconds
  // The split, then the device: its context awaited, its memory and the upload.
  std::array<double, 2> setup_seconds_{};
  bool ghost_layer_ = false;  // the split's view over ranks (SplitStencil::has_ghost_layer)
};

Schema matm_cuda_schema();

}  // namespace solvent::matm::cuda
