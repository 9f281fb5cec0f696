#pragma once
// jacobi-cuda: M = D on a CUDA device. The diagonal is taken on the host (the same code as
// jacobi's) and kept resident; apply() is one kernel on device vectors. CSR and seven-point
// operators, the storages of the CUDA Krylov solvers. The GPU is probed at the first setup().
#include "cuda/device_diagonal.hpp"

#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent::jacobi {

class JacobiCudaPreconditioner final : public Preconditioner {
 public:
  explicit JacobiCudaPreconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> a) override;
  // r and z point to device memory.
  void apply_impl(std::span<const double> r, std::span<double> z) const override;
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override;

 private:
  std::shared_ptr<spdlog::logger> log_;
  std::string device_name_;  // empty until the first setup found a device
  DeviceDiagonal inverse_;
};

}  // namespace solvent::jacobi
