#include "cpu/ilu0_preconditioner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include <string>

namespace solvent::ilu {
namespace {
constexpr const char* kPlugin = "ilu0";
}

Ilu0Preconditioner::Ilu0Preconditioner(const PluginContext& context)
    : log_(context.log), overlap_(static_cast<int>(context.params.integer("overlap"))) {}

std::vector<OperatorForm> Ilu0Preconditioner::forms() const {
  return {{OperatorKind::Csr, ScalarKind::Real}, {OperatorKind::Csr, ScalarKind::Complex}};
}

void Ilu0Preconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  overlap_rows_.reset();
  if (overlap_ > 0 && distributed_rows_of(*a)) {
    std::visit(
        [&](const auto& m) {
          if constexpr (requires { m.distribution; }) {
            auto sub = overlap_subdomain(m, overlap_);
            factors_.factor(Operator(std::move(sub.matrix)), kPlugin);
            overlap_rows_ = std::move(sub.overlap);
          }
        },
        *a);
  } else {
    factors_.factor(*a, kPlugin);
  }
  ++setups_;
}

void Ilu0Preconditioner::refresh_impl(std::shared_ptr<const Operator> a) {
  // An overlapping subdomain holds other ranks' values: it is fetched and factored anew.
  if (!overlap_rows_ && factors_.refactor_in_place(*a)) {
    ++refreshes_;
    return;
  }
  if (log_) log_->debug("{}: refresh with another pattern: full setup", kPlugin);
  setup_impl(std::move(a));
}

// The core has checked r and z against the operator set up, so the factors are of T and of
// their length.
void Ilu0Preconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  if (overlap_rows_) return apply_on_subdomain(r, z);
  factors_.get<double>()->solve(r, z);
}

void Ilu0Preconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  if (overlap_rows_) return apply_on_subdomain(r, z);
  factors_.get<complex>()->solve(r, z);
}

// r on the subdomain (the rank's own values, then the overlap rows' from their owners),
// solved there, and the solution kept on the rank's own rows only: restricted, so no sum
// over the overlaps travels back.
template <class T>
void Ilu0Preconditioner::apply_on_subdomain(std::span<const T> r, std::span<T> z) const {
  std::vector<T> extended(overlap_rows_->columns());
  std::copy(r.begin(), r.end(), extended.begin());
  GhostExchange<T>(overlap_rows_).exchange(extended);
  factors_.get<T>()->solve(extended, extended);
  std::copy_n(extended.begin(), z.size(), z.begin());
}

Facts Ilu0Preconditioner::facts() const {
  Facts f{{"setups", std::to_string(setups_)}, {"refreshes", std::to_string(refreshes_)}};
  if (overlap_rows_) f.emplace_back("rank0_overlap_rows", std::to_string(overlap_rows_->ghosts.size()));
  return f;
}

}  // namespace solvent::ilu
