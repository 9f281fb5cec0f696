#pragma once
// `matm-cuda`: the modified alternating-triangular method (Sukhinov et al.) on one GPU, the
// operator resident on the device from setup() on; over MPI ranks, one GPU per rank
// (DeviceMatm says what crosses between them).
#include "cuda/device_matm.hpp"

#include <solvent_matm/solver_base.hpp>

#include <memory>
#include <string>

namespace solvent::matm::cuda {

class MatmCudaSolver final : public SolverBase {
 public:
  explicit MatmCudaSolver(const PluginContext& ctx);

  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  using LinearSolver::solve_impl;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;

 private:
  SweepShape shape_;
  int fragments_;
  std::string device_name_;
  std::unique_ptr<DeviceMatm> device_;
  double device_seconds_ = 0.0;
};

Schema matm_cuda_schema();

}  // namespace solvent::matm::cuda
