#pragma once
// jacobi-cuda: M = D on a CUDA device. The diagonal is taken on the host (the same code as
// jacobi's) and kept resident; apply() is one kernel on device vectors. CSR and seven-point
// operators, the storages of the CUDA Krylov solvers. The GPU is probed at the first setup().
#include "cuda/device_diagonal.hpp"

#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent::jacobi {

class JacobiCudaPreconditioner final : public Preconditioner {
 public:
  explicit JacobiCudaPreconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  void setup(std::shared_ptr<const Operator> a) override;
  // r and z point to device memory.
  void apply(std::span<const double> r, std::span<double> z) const override;
  void apply(std::span<const complex> r, std::span<complex> z) const override;
  Facts facts() const override;

 private:
  template <class T>
  void scale(std::span<const T> r, std::span<T> z) const;

  std::shared_ptr<spdlog::logger> log_;
  std::string device_name_;           // empty until the first setup found a device
  std::optional<ScalarKind> scalar_;  // empty until a setup succeeds, and after one fails
  std::size_t n_ = 0;
  DeviceDiagonal inverse_;
};

}  // namespace solvent::jacobi
