#pragma once
// gepp-cuda: De Luca et al.'s Gaussian elimination with partial pivoting on the GPU (or, in
// mode = "blocked", a blocked LU), behind the LinearSolver interface. The GPU is probed at
// the first setup(), never at load.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>
#include "cuda/device_engine.hpp"
#include "cuda/device_gepp.hpp"

#include <cstdint>
#include <memory>

namespace solvent::dense {

class GeppCudaSolver final : public solvent::LinearSolver {
 public:
  explicit GeppCudaSolver(const solvent::PluginContext& context);

  std::vector<solvent::OperatorForm> forms() const override;
  solvent::Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator> op) override;
  solvent::SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;

 private:
  EngineOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<DeviceEngine> device_;
  std::shared_ptr<const solvent::Operator> op_;
  std::size_t n_ = 0;
  std::int64_t solves_ = 0;
  PhaseTimes totals_;
};

}  // namespace solvent::dense
