#pragma once
// ilu0-cuda: M = L U, the ILU(0) factors of a CSR operator, applied on a CUDA device. The
// factorisation runs on the host with ilu0's code (cuSPARSE's own ILU(0), csrilu02, is
// deprecated in CUDA 13 and the build refuses deprecated calls); the factors are kept
// resident and the two triangular solves of an apply are cuSPARSE's SpSV. The GPU is probed
// at the first setup().
#include "cuda/device_lu.hpp"
#include "src/host_factors.hpp"

#include <solvent/operator.hpp>
#include <solvent/plugin.hpp>
#include <solvent/preconditioner.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent::ilu {

class Ilu0CudaPreconditioner final : public Preconditioner {
 public:
  explicit Ilu0CudaPreconditioner(const PluginContext& context);

  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> a) override;
  void refresh_impl(std::shared_ptr<const Operator> a) override;
  // r and z point to device memory.
  void apply_impl(std::span<const double> r, std::span<double> z) const override;
  void apply_impl(std::span<const complex> r, std::span<complex> z) const override;

 private:
  template <class T>
  void substitute(std::span<const T> r, std::span<T> z) const;

  std::shared_ptr<spdlog::logger> log_;
  std::string device_name_;  // empty until the first setup found a device
  // Kept on the host too, for the in-place refactorisation of a refresh.
  HostFactors factors_;
  std::unique_ptr<DeviceLu> device_;  // null for an operator of no rows
  std::int64_t setups_ = 0;
  std::int64_t refreshes_ = 0;  // numeric refactorisations on the kept pattern
};

}  // namespace solvent::ilu
