#include "cpu/jacobi_preconditioner.hpp"

#include "src/diagonal_scaling.hpp"
#include "src/inverse_diagonal.hpp"

namespace solvent::jacobi {
namespace {
constexpr const char* kPlugin = "jacobi";
}

JacobiPreconditioner::JacobiPreconditioner(const PluginContext&) {}

std::vector<OperatorForm> JacobiPreconditioner::forms() const {
  std::vector<OperatorForm> f;
  for (auto kind :
       {OperatorKind::Csr, OperatorKind::Dense, OperatorKind::Banded, OperatorKind::Stencil7})
    for (auto scalar : {ScalarKind::Real, ScalarKind::Complex}) f.push_back({kind, scalar});
  return f;
}

void JacobiPreconditioner::setup(std::shared_ptr<const Operator> a) {
  scalar_.reset();
  require_form(*a, forms(), kPlugin);
  inverse_ = inverse_diagonal(*a, kPlugin);
  n_ = rows_of(*a);
  scalar_ = scalar_of(*a);
}

template <class T>
void JacobiPreconditioner::scale(std::span<const T> r, std::span<T> z) const {
  check_apply(scalar_, scalar_kind_of<T>, n_, r.size(), z.size(), kPlugin);
  const auto& inverse = std::get<std::vector<T>>(inverse_);
  for (std::size_t i = 0; i < n_; ++i) z[i] = scaled(inverse[i], r[i]);
}

void JacobiPreconditioner::apply(std::span<const double> r, std::span<double> z) const {
  scale(r, z);
}

void JacobiPreconditioner::apply(std::span<const complex> r, std::span<complex> z) const {
  scale(r, z);
}

}  // namespace solvent::jacobi
