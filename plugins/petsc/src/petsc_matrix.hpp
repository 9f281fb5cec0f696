#pragma once
// An operator as PETSc's AIJ matrix, shared by the solvers and the preconditioners of the
// package: a CSR matrix the process holds whole (SeqAIJ on this process) or this rank's rows
// of one distributed over the ranks, or a seven-point operator, whole or this rank's block
// of one distributed over the ranks (both distributed ones MPIAIJ on MPI_COMM_WORLD, each
// rank its own rows). Two Vecs without storage of the matrix's layout go
// with it, for the caller's input and output (PlacedArray lends them Solvent's vectors).
#include "src/petsc_runtime.hpp"

#include <petscmat.h>

#include <cstdint>
#include <memory>

namespace solvent::petsc {

class AijMatrix {
 public:
  AijMatrix() = default;
  ~AijMatrix();
  AijMatrix(const AijMatrix&) = delete;
  AijMatrix& operator=(const AijMatrix&) = delete;

  // Takes `op` (CSR or seven-point of this PETSc's scalar): a CSR matrix of the size and
  // nonzero pattern of the one held has its values copied into the matrix (PETSc raises the
  // matrix's state, so a PC set up on it refactors numerically and keeps its symbolic
  // analysis); anything else is a new matrix. A seven-point operator is always a new matrix
  // (its active nodes, and so its pattern, may differ). The operator is kept alive.
  void take(std::shared_ptr<const Operator> op);

  Mat mat() const { return mat_; }
  Vec in() const { return in_; }
  Vec out() const { return out_; }
  // PETSC_COMM_SELF, or MPI_COMM_WORLD for a distributed operator.
  MPI_Comm comm() const { return comm_; }
  const std::shared_ptr<const Operator>& source() const { return source_; }
  std::int64_t builds() const { return builds_; }
  std::int64_t value_updates() const { return value_updates_; }

 private:
  void build(const CsrMatrix<Scalar>& a);
  void build(const Stencil7<Scalar>& a);
  void build_distributed(const CsrMatrix<Scalar>& a);
  void make_vectors(PetscInt local_rows);
  void release();

  Mat mat_ = nullptr;
  Vec in_ = nullptr, out_ = nullptr;
  MPI_Comm comm_ = PETSC_COMM_SELF;
  std::shared_ptr<const Operator> source_;
  std::int64_t builds_ = 0, value_updates_ = 0;
};

}  // namespace solvent::petsc
