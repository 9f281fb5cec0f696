#pragma once
// cusolver: cuSOLVER's dense LU (getrf / getrs) behind the LinearSolver interface, the
// vendor reference gepp-cuda is measured against. The GPU is probed at the first setup().
#include "cuda/cusolver_lu.hpp"

#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

#include <cstdint>
#include <memory>

namespace solvent::dense {

class CusolverSolver final : public DirectSolver {
 public:
  explicit CusolverSolver(const PluginContext& context);
  std::vector<OperatorForm> forms() const override;

 protected:
  void load(const Operator& op) override;
  void factor() override;
  void substitute(std::span<const double> b, std::span<double> x) override;
  void factor_and_solve(std::span<const double> b, std::span<double> x) override;
  Facts more_facts() const override;

 private:
  int device_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<CusolverLu> lu_;
  std::int64_t solves_ = 0;
  LuTimes totals_;
};

}  // namespace solvent::dense
