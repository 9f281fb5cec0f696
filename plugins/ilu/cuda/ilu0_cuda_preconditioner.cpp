#include "cuda/ilu0_cuda_preconditioner.hpp"

#include <solvent/device/cuda.hpp>

#include <spdlog/spdlog.h>

namespace solvent::ilu {
namespace {
constexpr const char* kPlugin = "ilu0-cuda";
}

Ilu0CudaPreconditioner::Ilu0CudaPreconditioner(const PluginContext& context) : log_(context.log) {
  if (context.comm->size() > 1) cuda::select_rank_device(*context.comm, kPlugin);
}

std::vector<OperatorForm> Ilu0CudaPreconditioner::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real}, {OperatorKind::Csr, ScalarKind::Complex}};
}

void Ilu0CudaPreconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  factors_.clear();
  device_.reset();
  // Kept only once they are on the device too, so that a setup that fails leaves no factors.
  HostFactors factors;
  factors.factor(*a, kPlugin);
  if (device_name_.empty()) {
    device_name_ = cuda::current_device(kPlugin);
    if (log_) log_->info("{}: using {}", kPlugin, device_name_);
  }
  factors.visit([&]<class T>(const Ilu0<T>& f) {
    if (f.rows() > 0)
      device_ = std::make_unique<DeviceLu>(std::span<const std::int32_t>(f.row_ptr()),
                                           std::span<const std::int32_t>(f.col_idx()),
                                           std::span<const T>(f.values()));
  });
  factors_ = std::move(factors);
  ++setups_;
}

void Ilu0CudaPreconditioner::refresh_impl(std::shared_ptr<const Operator> a) {
  if (factors_.refactor_in_place(*a)) {
    try {
      if (device_)
        factors_.visit(
            [&]<class T>(const Ilu0<T>& f) { device_->update(std::span<const T>(f.values())); });
    } catch (...) {
      factors_.clear();
      device_.reset();
      throw;
    }
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern: full setup", kPlugin);
  setup_impl(std::move(a));
}

// The core has checked r and z against the operator set up: the device factors' scalar type
// and length.
template <class T>
void Ilu0CudaPreconditioner::substitute(std::span<const T> r, std::span<T> z) const {
  if (device_) device_->solve(r.data(), z.data());
}

void Ilu0CudaPreconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  substitute(r, z);
}

void Ilu0CudaPreconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  substitute(r, z);
}

Facts Ilu0CudaPreconditioner::facts() const {
  Facts f{{"setups", std::to_string(setups_)}, {"refreshes", std::to_string(refreshes_)}};
  if (!device_name_.empty()) f.emplace_back("device", device_name_);
  return f;
}

}  // namespace solvent::ilu
