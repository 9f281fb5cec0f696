#include "src/petsc_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace solvent::petsc {

AijMatrix::~AijMatrix() { release(); }

void AijMatrix::release() {
  if (mat_) MatDestroy(&mat_);
  if (in_) VecDestroy(&in_);
  if (out_) VecDestroy(&out_);
  source_.reset();
}

void AijMatrix::take(std::shared_ptr<const Operator> op) {
  if (const auto* st = std::get_if<Stencil7<Scalar>>(&*op)) {
    build(*st);
  } else {
    const auto& a = std::get<CsrMatrix<Scalar>>(*op);
    if (!a.square())
      throw SolverError(
          fmt::format("{}: matrix is {} x {}, not square", plugin_name(), a.rows, a.cols));
    const auto* old = source_ ? std::get_if<CsrMatrix<Scalar>>(&*source_) : nullptr;
    if (a.distributed()) {
      build_distributed(a);
    } else if (mat_ && old && !old->distributed() && old->rows == a.rows &&
               old->row_ptr == a.row_ptr && old->col_idx == a.col_idx) {
      Scalar* values = nullptr;
      check(MatSeqAIJGetArray(mat_, &values), "MatSeqAIJGetArray");
      std::copy(a.values.begin(), a.values.end(), values);
      check(MatSeqAIJRestoreArray(mat_, &values), "MatSeqAIJRestoreArray");
      ++value_updates_;
    } else {
      build(a);
    }
  }
  source_ = std::move(op);
}

void AijMatrix::make_vectors(PetscInt local_rows) {
  if (comm_ == PETSC_COMM_SELF) {
    check(VecCreateSeqWithArray(comm_, 1, local_rows, nullptr, &in_), "VecCreateSeqWithArray");
    check(VecCreateSeqWithArray(comm_, 1, local_rows, nullptr, &out_), "VecCreateSeqWithArray");
  } else {
    check(VecCreateMPIWithArray(comm_, 1, local_rows, PETSC_DECIDE, nullptr, &in_),
          "VecCreateMPIWithArray");
    check(VecCreateMPIWithArray(comm_, 1, local_rows, PETSC_DECIDE, nullptr, &out_),
          "VecCreateMPIWithArray");
  }
}

void AijMatrix::build(const CsrMatrix<Scalar>& a) {
  const auto n = static_cast<PetscInt>(a.rows);
  std::vector<PetscInt> ia(a.row_ptr.begin(), a.row_ptr.end());
  std::vector<PetscInt> ja(a.col_idx.begin(), a.col_idx.end());
  release();
  comm_ = PETSC_COMM_SELF;
  check(MatCreate(comm_, &mat_), "MatCreate");
  check(MatSetSizes(mat_, n, n, n, n), "MatSetSizes");
  check(MatSetType(mat_, MATSEQAIJ), "MatSetType");
  // Copies the three arrays and assembles: the matrix owns its storage.
  check(MatSeqAIJSetPreallocationCSR(mat_, ia.data(), ja.data(), a.values.data()),
        "MatSeqAIJSetPreallocationCSR");
  make_vectors(n);
  ++builds_;
}

// A CSR matrix distributed by rows: each rank inserts its own rows, the unknowns numbered one
// rank after another (RowDistribution::first_row: a rank's part of a PETSc vector is its rows
// as Solvent holds them), a ghost column at its owner's row in that numbering. No rank
// gathers anything.
void AijMatrix::build_distributed(const CsrMatrix<Scalar>& a) {
  const RowDistribution& d = *a.distribution;
  int world_size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (world_size != d.comm->size())
    throw SolverError(fmt::format("{}: the matrix is split over {} ranks, MPI_COMM_WORLD has {}",
                                  plugin_name(), d.comm->size(), world_size));
  std::vector<PetscInt> start(1, 0);
  for (const auto rows : d.rows_per_rank) start.push_back(start.back() + PetscInt(rows));
  const auto n = static_cast<PetscInt>(a.rows);
  std::vector<PetscInt> own(a.rows), other(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      ++(std::size_t(a.col_idx[std::size_t(p)]) < a.rows ? own[i] : other[i]);
  release();
  comm_ = MPI_COMM_WORLD;
  check(MatCreateAIJ(comm_, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 0, own.data(), 0,
                     other.data(), &mat_),
        "MatCreateAIJ");
  std::vector<PetscInt> cols;
  for (std::size_t i = 0; i < a.rows; ++i) {
    const PetscInt row = PetscInt(d.first_row) + PetscInt(i);
    cols.clear();
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = std::size_t(a.col_idx[std::size_t(p)]);
      const std::size_t g = j - a.rows;
      cols.push_back(j < a.rows ? PetscInt(d.first_row) + PetscInt(j)
                                : start[std::size_t(d.owner[g])] + PetscInt(d.owner_local[g]));
    }
    check(MatSetValues(mat_, 1, &row, PetscInt(cols.size()), cols.data(),
                       a.values.data() + a.row_ptr[i], INSERT_VALUES),
          "MatSetValues");
  }
  check(MatAssemblyBegin(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  make_vectors(n);
  ++builds_;
}

// Each rank inserts its own rows with global column indices, the ranks numbered one after
// another (rank r's nodes from the sum of the blocks before it, in the block's own order, so
// a rank's part of a PETSc vector is its block as Solvent holds it); a coupling across a
// block face goes to the neighbour's node there. No rank gathers anything. The rows are those
// of the core's conversion to CSR: an inactive node (c0 = 0) is the row u = 0.
void AijMatrix::build(const Stencil7<Scalar>& a) {
  MPI_Comm comm = PETSC_COMM_SELF;
  int rank = 0;
  std::vector<PetscInt> start(1, 0);
  GridBlocks::Index3 e{int(a.n1), int(a.n2), int(a.n3)};
  std::array<int, 6> nb{-1, -1, -1, -1, -1, -1};
  std::vector<GridBlocks::Index3> extents(1, e);
  if (a.distributed()) {
    const auto& blocks = a.block->blocks;
    int world_size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    if (world_size != blocks.ranks())
      throw SolverError(fmt::format("{}: the stencil is split over {} ranks, MPI_COMM_WORLD has {}",
                                    plugin_name(), blocks.ranks(), world_size));
    comm = MPI_COMM_WORLD;
    rank = a.block->rank;
    nb = blocks.neighbours(rank);
    extents.clear();
    for (int r = 0; r < blocks.ranks(); ++r) {
      const auto x = blocks.extent(r);
      extents.push_back(x);
      start.push_back(start.back() + PetscInt(x[0]) * x[1] * x[2]);
    }
  }
  const auto n = static_cast<PetscInt>(a.size());
  release();
  comm_ = comm;
  check(MatCreateAIJ(comm, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 7, nullptr, 6, nullptr, &mat_),
        "MatCreateAIJ");
  const PetscInt first = start[std::size_t(rank)];
  auto global = [&](int r, int i, int j, int k) {
    const auto& x = extents[std::size_t(r)];
    return start[std::size_t(r)] + i + PetscInt(x[0]) * (j + PetscInt(x[1]) * k);
  };
  for (int k = 0; k < e[2]; ++k)
    for (int j = 0; j < e[1]; ++j)
      for (int i = 0; i < e[0]; ++i) {
        const std::size_t m = a.index(std::size_t(i), std::size_t(j), std::size_t(k));
        const PetscInt row = first + PetscInt(m);
        PetscInt cols[7];
        Scalar vals[7];
        int count = 0;
        auto add = [&](PetscInt col, Scalar v) {
          cols[count] = col;
          vals[count++] = v;
        };
        if (a.c[0][m] == Scalar{}) {
          add(row, Scalar(1));
        } else {
          add(row, a.c[0][m]);
          const int p[3] = {i, j, k};
          for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
              const int face = 2 * axis + side;
              const Scalar c = a.c[std::size_t(face + 1)][m];
              int q[3] = {p[0], p[1], p[2]};
              q[axis] += side ? 1 : -1;
              if (q[axis] >= 0 && q[axis] < e[std::size_t(axis)]) {
                add(global(rank, q[0], q[1], q[2]), -c);
              } else if (nb[std::size_t(face)] >= 0) {
                const int other = nb[std::size_t(face)];
                q[axis] = side ? 0 : extents[std::size_t(other)][std::size_t(axis)] - 1;
                add(global(other, q[0], q[1], q[2]), -c);
              }
            }
        }
        check(MatSetValues(mat_, 1, &row, count, cols, vals, INSERT_VALUES), "MatSetValues");
      }
  check(MatAssemblyBegin(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(mat_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  make_vectors(n);
  ++builds_;
}

}  // namespace solvent::petsc
