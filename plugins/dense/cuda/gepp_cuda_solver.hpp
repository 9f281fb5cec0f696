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

class GeppCudaSolver final : public DirectSolver {
 public:
  explicit GeppCudaSolver(const PluginContext& context);
  std::vector<OperatorForm> forms() const override;

 protected:
  void load(const Operator& op) override;
  void factor() override;
  void substitute(std::span<const double> b, std::span<double> x) override;
  void factor_and_solve(std::span<const double> b, std::span<double> x) override;
  Facts more_facts() const override;

 private:
  GeppCudaSolver(const EngineOptions& options, std::shared_ptr<spdlog::logger> log);

  EngineOptions options_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<DeviceEngine> device_;
  std::size_t n_ = 0;
  std::int64_t solves_ = 0;
  PhaseTimes totals_;
};

}  // namespace solvent::dense
