#pragma once
// An Operator is one of the storage formats the core knows. A solver states which
// (kind, scalar) pairs it accepts; the core refuses a mismatch before any work starts.
#include <solvent/banded_matrix.hpp>
#include <solvent/csr_matrix.hpp>
#include <solvent/dense_matrix.hpp>
#include <solvent/scalar.hpp>
#include <solvent/stencil7.hpp>

#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace solvent {

enum class OperatorKind { Dense, Csr, Stencil7, Banded };

constexpr std::string_view to_string(OperatorKind k) {
  switch (k) {
    case OperatorKind::Dense:
      return "dense";
    case OperatorKind::Csr:
      return "csr";
    case OperatorKind::Stencil7:
      return "stencil7";
    case OperatorKind::Banded:
      return "banded";
  }
  return "?";
}

using Operator =
    std::variant<DenseMatrix<double>, DenseMatrix<complex>, CsrMatrix<double>, CsrMatrix<complex>,
                 Stencil7<double>, Stencil7<complex>, BandedMatrix<double>, BandedMatrix<complex>>;

OperatorKind kind_of(const Operator& op);
ScalarKind scalar_of(const Operator& op);
std::size_t rows_of(const Operator& op);

// A vector of either scalar type (right-hand sides, solutions).
using Vector = std::variant<std::vector<double>, std::vector<complex>>;

// ||b - A x||_2 / ||b||_2 (||b - A x||_2 when b = 0), computed the same way for every
// storage: what a solver reports as its residual, so that no solver reports one it did not
// compute. Throws UnsupportedOperator when the scalar types differ.
double relative_residual(const Operator& a, std::span<const double> b, std::span<const double> x);
double relative_residual(const Operator& a, std::span<const complex> b,
                         std::span<const complex> x);

}  // namespace solvent
