#include <solvent_krylov/matrix_view.hpp>

#include <solvent/errors.hpp>
#include <solvent/scalar.hpp>

#include <string>

namespace solvent::krylov {

template <class T>
std::vector<T> jacobi_inverse_diagonal(const MatrixView<T>& a) {
  const std::size_t n = rows_of(a);
  std::vector<T> inv(n, T(0));
  if (const auto* csr = std::get_if<const CsrMatrix<T>*>(&a)) {
    const CsrMatrix<T>& m = **csr;
    for (std::size_t i = 0; i < n; ++i)
      for (std::int32_t j = m.row_ptr[i]; j < m.row_ptr[i + 1]; ++j)
        if (static_cast<std::size_t>(m.col_idx[j]) == i) inv[i] = m.values[j];
  } else {
    const Stencil7View<T> s = view_of(*std::get<const Stencil7<T>*>(a));
    for (std::size_t i = 0; i < n; ++i) inv[i] = stencil7_diagonal(s, static_cast<std::int64_t>(i));
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (is_zero(inv[i]))
      throw SolverError("jacobi preconditioner: the diagonal of row " + std::to_string(i) +
                        " is zero (use preconditioner = \"none\")");
    inv[i] = T(1) / inv[i];
  }
  return inv;
}

template std::vector<double> jacobi_inverse_diagonal(const MatrixView<double>&);
template std::vector<complex> jacobi_inverse_diagonal(const MatrixView<complex>&);

}  // namespace solvent::krylov
