#pragma once
// Operators. A linear operator has a size, a scalar type (double or complex) and an action
// y = A x (solvent::apply). It comes in one of the storages the core knows — dense, CSR,
// banded, seven-point stencil — or matrix-free, as a model's own y = A x. Solvers that
// factor or analyse a matrix look inside the storage; everything else (Krylov methods, the
// residual check) only applies it, so a solver never writes one matrix-vector product per
// storage. The storages form a closed set on purpose: the core can convert between them
// (solvent/conversion.hpp) and a solver can say which ones it uses.
#include <solvent/banded_matrix.hpp>
#include <solvent/csr_matrix.hpp>
#include <solvent/dense_matrix.hpp>
#include <solvent/scalar.hpp>
#include <solvent/stencil7.hpp>

#include <memory>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

namespace solvent {

enum class OperatorKind { Dense, Csr, Stencil7, Banded, MatrixFree };

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
    case OperatorKind::MatrixFree:
      return "matrix-free";
  }
  return "?";
}

// A storage and a scalar type: what a solver or preconditioner says it can work on.
struct OperatorForm {
  OperatorKind kind = OperatorKind::Dense;
  ScalarKind scalar = ScalarKind::Real;
  bool operator==(const OperatorForm&) const = default;
};

// An operator known only by its action, y = A x (PETSc's MatShell). It must stay valid and
// unchanged while a solver uses it; apply() may be called from one thread at a time.
template <class T>
class MatrixFreeOperator {
 public:
  virtual ~MatrixFreeOperator() = default;
  virtual std::size_t rows() const = 0;
  virtual void apply(std::span<const T> x, std::span<T> y) const = 0;
};

template <class T>
using MatrixFree = std::shared_ptr<const MatrixFreeOperator<T>>;

using Operator =
    std::variant<DenseMatrix<double>, DenseMatrix<complex>, CsrMatrix<double>, CsrMatrix<complex>,
                 Stencil7<double>, Stencil7<complex>, BandedMatrix<double>, BandedMatrix<complex>,
                 MatrixFree<double>, MatrixFree<complex>>;

OperatorKind kind_of(const Operator& op);
ScalarKind scalar_of(const Operator& op);
OperatorForm form_of(const Operator& op);
std::size_t rows_of(const Operator& op);
// The rank's rows of a CSR operator distributed over several ranks; null for any other.
std::shared_ptr<const RowDistribution> distributed_rows_of(const Operator& op);

// y = A x for any storage. Throws UnsupportedOperator when the scalar types differ and
// SolverError when the lengths are not the operator's size.
void apply(const Operator& a, std::span<const double> x, std::span<double> y);
void apply(const Operator& a, std::span<const complex> x, std::span<complex> y);

// A vector of either scalar type (right-hand sides, solutions).
using Vector = std::variant<std::vector<double>, std::vector<complex>>;

// ||b - A x||_2 / ||b||_2 (||b - A x||_2 when b = 0), computed the same way for every
// storage: what a solver reports as its residual, so that no solver reports one it did not
// compute. Throws UnsupportedOperator when the scalar types differ.
double relative_residual(const Operator& a, std::span<const double> b, std::span<const double> x);
double relative_residual(const Operator& a, std::span<const complex> b,
                         std::span<const complex> x);

// The index of the first entry of v that is inf or NaN (for a complex entry, in either part),
// or v.size() when all are finite. Every step checks its vectors with it, so finite ones take
// one vectorised pass and the search runs only after that found something.
std::size_t first_non_finite(std::span<const double> v);
std::size_t first_non_finite(std::span<const complex> v);

}  // namespace solvent
