#pragma once
// The operators the Krylov solvers apply, seen without copying: a CSR matrix or a seven-point
// stencil (host and device), or a matrix-free operator (host only: its action runs on the
// CPU), in either scalar type.
#include <solvent/csr_matrix.hpp>
#include <solvent/operator.hpp>
#include <solvent/stencil7.hpp>

#include <solvent_krylov/scalar_math.hpp>

#include <cstddef>
#include <variant>
#include <vector>

namespace solvent::krylov {

template <class T>
using MatrixView =
    std::variant<const CsrMatrix<T>*, const Stencil7<T>*, const MatrixFreeOperator<T>*>;

template <class T>
std::size_t rows_of(const MatrixView<T>& a) {
  return std::visit(
      [](const auto* m) -> std::size_t {
        if constexpr (requires { m->rows(); })
          return m->rows();
        else if constexpr (requires { m->rows; })
          return m->rows;
        else
          return m->size();
      },
      a);
}

template <class T>
Stencil7View<T> view_of(const Stencil7<T>& s) {
  Stencil7View<T> v{};
  for (int d = 0; d < 7; ++d) v.c[d] = s.c[d].data();
  v.n1 = static_cast<std::int64_t>(s.n1);
  v.n2 = static_cast<std::int64_t>(s.n2);
  v.n3 = static_cast<std::int64_t>(s.n3);
  return v;
}

}  // namespace solvent::krylov
