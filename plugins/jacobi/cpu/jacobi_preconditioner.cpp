#include "cpu/jacobi_preconditioner.hpp"

#include "src/diagonal_scaling.hpp"
#include "src/inverse_diagonal.hpp"

#include <solvent/numerics/vector_kernel.hpp>

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

void JacobiPreconditioner::setup_impl(std::shared_ptr<const Operator> a) {
  inverse_ = inverse_diagonal(*a, kPlugin);
}

// The core has checked that r and z have the scalar type and length of the operator set up.
// In cache inside a Krylov iteration, so its issue rate decides: an AVX2 build beside the
// baseline (SOLVENT_VECTOR_KERNEL), the same bits.
template <class T>
SOLVENT_VECTOR_KERNEL void JacobiPreconditioner::scale(std::span<const T> r, std::span<T> z) const {
  const auto& inverse = std::get<std::vector<T>>(inverse_);
  for (std::size_t i = 0; i < inverse.size(); ++i) z[i] = scaled(inverse[i], r[i]);
}

void JacobiPreconditioner::apply_impl(std::span<const double> r, std::span<double> z) const {
  scale(r, z);
}

void JacobiPreconditioner::apply_impl(std::span<const complex> r, std::span<complex> z) const {
  scale(r, z);
}

}  // namespace solvent::jacobi
