#include "cuda/ilu0_cuda_preconditioner.hpp"

#include "src/preconditioner_checks.hpp"

#include <solvent/cuda.hpp>

#include <spdlog/spdlog.h>

namespace solvent::ilu {
namespace {
constexpr const char* kPlugin = "ilu0-cuda";
}

Ilu0CudaPreconditioner::Ilu0CudaPreconditioner(const PluginContext& context)
    : log_(context.log) {}

std::vector<OperatorForm> Ilu0CudaPreconditioner::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real}, {OperatorKind::Csr, ScalarKind::Complex}};
}

template <class T>
void Ilu0CudaPreconditioner::factor(const CsrMatrix<T>& a) {
  Ilu0<T> f(a, kPlugin);
  if (device_name_.empty()) {
    device_name_ = cuda::current_device(kPlugin);
    if (log_) log_->info("{}: using {}", kPlugin, device_name_);
  }
  if (f.rows() > 0)
    device_ = std::make_unique<DeviceLu>(std::span<const std::int32_t>(f.row_ptr()),
                                         std::span<const std::int32_t>(f.col_idx()),
                                         std::span<const T>(f.values()));
  factors_ = std::move(f);
}

void Ilu0CudaPreconditioner::setup(std::shared_ptr<const Operator> a) {
  factors_ = std::monostate{};
  device_.reset();
  require_form(*a, forms(), kPlugin);
  if (const auto* m = std::get_if<CsrMatrix<double>>(a.get()))
    factor(*m);
  else
    factor(std::get<CsrMatrix<complex>>(*a));
  ++setups_;
}

void Ilu0CudaPreconditioner::refresh(std::shared_ptr<const Operator> a) {
  if (refactor_in_place<double>(*a) || refactor_in_place<complex>(*a)) {
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern or scalar type: full setup", kPlugin);
  setup(std::move(a));
}

template <class T>
bool Ilu0CudaPreconditioner::refactor_in_place(const Operator& a) {
  auto* f = std::get_if<Ilu0<T>>(&factors_);
  const auto* m = std::get_if<CsrMatrix<T>>(&a);
  if (f == nullptr || m == nullptr || !f->same_pattern(*m)) return false;
  try {
    f->refactor(*m);
    if (device_) device_->update(std::span<const T>(f->values()));
  } catch (...) {
    factors_ = std::monostate{};
    device_.reset();
    throw;
  }
  return true;
}

std::optional<ScalarKind> Ilu0CudaPreconditioner::scalar() const {
  if (std::holds_alternative<Ilu0<double>>(factors_)) return ScalarKind::Real;
  if (std::holds_alternative<Ilu0<complex>>(factors_)) return ScalarKind::Complex;
  return std::nullopt;
}

template <class T>
void Ilu0CudaPreconditioner::substitute(std::span<const T> r, std::span<T> z) const {
  const auto* f = std::get_if<Ilu0<T>>(&factors_);
  check_apply(scalar(), scalar_kind_of<T>, f ? f->rows() : 0, r.size(), z.size(), kPlugin);
  if (device_) device_->solve(r.data(), z.data());
}

void Ilu0CudaPreconditioner::apply(std::span<const double> r, std::span<double> z) const {
  substitute(r, z);
}

void Ilu0CudaPreconditioner::apply(std::span<const complex> r, std::span<complex> z) const {
  substitute(r, z);
}

Facts Ilu0CudaPreconditioner::facts() const {
  Facts f{{"setups", std::to_string(setups_)}, {"refreshes", std::to_string(refreshes_)}};
  if (!device_name_.empty()) f.emplace_back("device", device_name_);
  return f;
}

}  // namespace solvent::ilu
