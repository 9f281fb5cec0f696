#pragma once
// cusolver: cuSOLVER's dense LU (getrf / getrs) behind the LinearSolver interface, the
// vendor reference gepp-cuda is measured against. The GPU is probed at the first setup().
#include "cuda/cusolver_lu.hpp"

#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

#include <cstdint>
#include <memory>

namespace solvent::dense {

class CusolverSolver final : public LinearSolver {
 public:
  explicit CusolverSolver(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;

 private:
  bool reuse_;
  int device_;
  std::shared_ptr<spdlog::logger> log_;
  std::unique_ptr<CusolverLu> lu_;
  std::shared_ptr<const Operator> op_;
  std::size_t n_ = 0;
  std::int64_t solves_ = 0;
  LuTimes totals_;
};

}  // namespace solvent::dense
