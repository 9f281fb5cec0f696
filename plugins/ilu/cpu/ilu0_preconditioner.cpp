#include "cpu/ilu0_preconditioner.hpp"

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

void Ilu0Preconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  factors_.factor(*a, kPlugin);
  ++setups_;
}

void Ilu0Preconditioner::refresh_impl(std::shared_ptr<const Operator> a) {
  if (factors_.refactor_in_place(*a)) {
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern: full setup", kPlugin);
  setup_impl(std::move(a));
}

// The core has checked r and z against the operator set up, so the factors are of T and of
// their length.
void Ilu0Preconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  factors_.get<double>()->solve(r, z);
}

void Ilu0Preconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  factors_.get<complex>()->solve(r, z);
}

Facts Ilu0Preconditioner::facts() const {
  return {{"setups", std::to_string(setups_)}, {"refreshes", std::to_string(refreshes_)}};
}

}  // namespace solvent::ilu
