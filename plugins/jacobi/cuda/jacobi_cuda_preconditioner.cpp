#include "cuda/jacobi_cuda_preconditioner.hpp"

#include "src/inverse_diagonal.hpp"

#include <solvent/device/cuda.hpp>

#include <spdlog/spdlog.h>

namespace solvent::jacobi {
namespace {
constexpr const char* kPlugin = "jacobi-cuda";
}

JacobiCudaPreconditioner::JacobiCudaPreconditioner(const PluginContext& context)
    : log_(context.log) {
  if (context.comm->size() > 1) cuda::select_rank_device(*context.comm, kPlugin);
}

std::vector<OperatorForm> JacobiCudaPreconditioner::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real},
          {OperatorKind::Csr, ScalarKind::Complex},
          {OperatorKind::Stencil7, ScalarKind::Real},
          {OperatorKind::Stencil7, ScalarKind::Complex}};
}

void JacobiCudaPreconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  const Vector inverse = inverse_diagonal(*a, kPlugin);
  if (device_name_.empty()) {
    device_name_ = cuda::current_device(kPlugin);
    if (log_) log_->info("{}: using {}", kPlugin, device_name_);
  }
  std::visit([&](const auto& v) { inverse_.upload(v); }, inverse);
}

// The core has checked r and z against the operator set up: the uploaded diagonal's type and
// length.
void JacobiCudaPreconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  inverse_.apply(r.data(), z.data());
}

void JacobiCudaPreconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  inverse_.apply(r.data(), z.data());
}

Facts JacobiCudaPreconditioner::facts() const {
  if (device_name_.empty()) return {};
  return {{"device", device_name_}};
}

}  // namespace solvent::jacobi
