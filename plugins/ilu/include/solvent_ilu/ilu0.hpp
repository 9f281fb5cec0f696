#pragma once
// ILU(0): A ≈ L U with L unit lower and U upper triangular, both restricted to A's own CSR
// pattern (no fill-in), so that (L U)_ij = a_ij wherever a_ij is stored. L's strict lower
// part and U (with its diagonal) share one array over A's pattern. The factorisation is
// Saad's IKJ variant (Iterative Methods for Sparse Linear Systems, 2nd ed., Algorithm 10.4).
//
// It is written here rather than called because no library Debian ships offers it for our
// matrices without bringing a framework: SuiteSparse has no incomplete factorisation;
// SuperLU's ILU is threshold-based with pivoting (ILUTP) and Eigen's IncompleteLUT is
// ILUT, both with fill-in; ViennaCL's ilu0 is real-only and wants its own matrix type;
// hypre's and Trilinos/Ifpack's work on their MPI-distributed matrices, and PETSc's would
// bring PETSc. None takes a complex CsrMatrix as it is.
#include <solvent/csr_matrix.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace solvent::ilu {

template <class T>
class Ilu0 {
 public:
  // Symbolic (the diagonal's position in every row) and numeric factorisation of a. Throws
  // SolverError, its message starting with `context` (the plugin's name), when a is not
  // square, when a row has no diagonal entry, or on a zero pivot, naming the row.
  Ilu0(const CsrMatrix<T>& a, std::string context);

  // Whether b has the size and pattern this factorisation was built on.
  bool same_pattern(const CsrMatrix<T>& b) const;
  // The numeric factorisation again, of b's values on the kept pattern (same_pattern(b)
  // must hold). After a throw (a zero pivot) the factors are unusable.
  void refactor(const CsrMatrix<T>& b);

  // z = U^{-1} L^{-1} r, forward then backward substitution; r and z may be the same vector.
  void solve(std::span<const T> r, std::span<T> z) const;

  std::size_t rows() const { return diagonal_.size(); }
  const std::vector<std::int32_t>& row_ptr() const { return row_ptr_; }
  const std::vector<std::int32_t>& col_idx() const { return col_idx_; }
  // Over A's pattern: l_ij below the diagonal (l_ii = 1 is not stored), u_ij on and above it.
  const std::vector<T>& values() const { return lu_; }
  // diagonal()[i]: the position of entry (i, i) in col_idx() and values().
  const std::vector<std::int32_t>& diagonal() const { return diagonal_; }

 private:
  void factor();

  std::string context_;
  std::vector<std::int32_t> row_ptr_;
  std::vector<std::int32_t> col_idx_;
  std::vector<std::int32_t> diagonal_;
  std::vector<T> lu_;
};

}  // namespace solvent::ilu
