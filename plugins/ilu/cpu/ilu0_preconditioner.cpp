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
  factors_.clear();
  require_form(*a, forms(), kPlugin);
  factors_.factor(*a, kPlugin);
  ++setups_;
}

void Ilu0Preconditioner::refresh(std::shared_ptr<const Operator> a) {
  if (factors_.refactor_in_place(*a)) {
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern or scalar type: full setup", kPlugin);
  setup(std::move(a));
}

template <class T>
void Ilu0Preconditioner::substitute(std::span<const T> r, std::span<T> z) const {
  const auto* f = factors_.get<T>();
  check_apply(factors_.scalar(), scalar_kind_of<T>, f ? f->rows() : 0, r.size(), z.size(),
              kPlugin);
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
