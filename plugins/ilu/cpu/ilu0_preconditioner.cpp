#include "cpu/ilu0_preconditioner.hpp"

#include "src/preconditioner_checks.hpp"

#include <spdlog/spdlog.h>

#include <string>

namespace solvent::ilu {
namespace {
constexpr const char* kPlugin = "ilu0";
}

Ilu0Preconditioner::Ilu0Preconditioner(const PluginContext& context) : log_(context.log) {}

std::vector<OperatorForm> Ilu0Preconditioner::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real}, {OperatorKind::Csr, ScalarKind::Complex}};
}

void Ilu0Preconditioner::setup(std::shared_ptr<const Operator> a) {
  factors_ = std::monostate{};
  require_form(*a, forms(), kPlugin);
  if (const auto* m = std::get_if<CsrMatrix<double>>(a.get()))
    factors_ = Ilu0<double>(*m, kPlugin);
  else
    factors_ = Ilu0<complex>(std::get<CsrMatrix<complex>>(*a), kPlugin);
  ++setups_;
}

void Ilu0Preconditioner::refresh(std::shared_ptr<const Operator> a) {
  if (refactor_in_place<double>(*a) || refactor_in_place<complex>(*a)) {
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern or scalar type: full setup", kPlugin);
  setup(std::move(a));
}

template <class T>
bool Ilu0Preconditioner::refactor_in_place(const Operator& a) {
  auto* f = std::get_if<Ilu0<T>>(&factors_);
  const auto* m = std::get_if<CsrMatrix<T>>(&a);
  if (f == nullptr || m == nullptr || !f->same_pattern(*m)) return false;
  try {
    f->refactor(*m);
  } catch (...) {
    factors_ = std::monostate{};
    throw;
  }
  return true;
}

std::optional<ScalarKind> Ilu0Preconditioner::scalar() const {
  if (std::holds_alternative<Ilu0<double>>(factors_)) return ScalarKind::Real;
  if (std::holds_alternative<Ilu0<complex>>(factors_)) return ScalarKind::Complex;
  return std::nullopt;
}

template <class T>
void Ilu0Preconditioner::substitute(std::span<const T> r, std::span<T> z) const {
  const auto* f = std::get_if<Ilu0<T>>(&factors_);
  check_apply(scalar(), scalar_kind_of<T>, f ? f->rows() : 0, r.size(), z.size(), kPlugin);
  f->solve(r, z);
}

void Ilu0Preconditioner::apply(std::span<const double> r, std::span<double> z) const {
  substitute(r, z);
}

void Ilu0Preconditioner::apply(std::span<const complex> r, std::span<complex> z) const {
  substitute(r, z);
}

Facts Ilu0Preconditioner::facts() const {
  return {{"setups", std::to_string(setups_)}, {"refreshes", std::to_string(refreshes_)}};
}

}  // namespace solvent::ilu
