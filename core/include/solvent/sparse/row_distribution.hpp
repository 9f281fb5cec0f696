#pragma once
// A sparse matrix whose rows are spread over ranks (PETSc's MPIAIJ, Trilinos' Import): each
// rank holds its own rows, numbered locally, and its columns split into its own unknowns and
// the ghosts — unknowns of other ranks' rows that its rows couple to. The exchange that
// brings the ghosts' values is worked out once, when the distribution is built (who sends
// which of its values to whom), and run before every product. What a distributed CSR
// operator carries (CsrMatrix::distribution); the structured grid's counterpart is
// grid/grid_blocks.hpp.
#include <solvent/communicator.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace solvent {

template <class T>
struct CsrMatrix;

struct RowDistribution {
  // The ranks; it outlives the distribution.
  const Communicator* comm = nullptr;
  std::size_t global_rows = 0;
  // Local row i is global row owned[i] (ascending), and local column i its unknown.
  std::vector<std::int64_t> owned;
  // Local column owned.size() + g is global column ghosts[g], row owner_local[g] of rank
  // owner[g]; sorted by owner, then by global index.
  std::vector<std::int64_t> ghosts;
  std::vector<int> owner;
  std::vector<std::int32_t> owner_local;
  // The ranks' rows numbered one rank after another (rank 0's first, each rank's in its own
  // order): this rank's first row in that numbering, and every rank's row count. A library
  // that wants contiguous ownership (PETSc) numbers the unknowns so: local row i is
  // first_row + i, ghost g is the first row of owner[g] plus owner_local[g].
  std::int64_t first_row = 0;
  std::vector<std::int64_t> rows_per_rank;

  // The exchange, one entry per rank that this one sends to or receives from, ascending:
  // the local rows whose values go to it (in the order it keeps them as ghosts), and the
  // run of this rank's ghosts it sends (ghosts are sorted by owner).
  struct Peer {
    int rank = 0;
    std::vector<std::int32_t> send_rows;
    std::size_t ghost_first = 0, ghost_count = 0;
  };
  std::vector<Peer> peers;

  std::size_t rows() const { return owned.size(); }
  std::size_t columns() const { return owned.size() + ghosts.size(); }
};

// The partition the rows were dealt out by (what a model records): the ranks' rows, how many
// couplings cross between ranks (the edge cut: pairs i != j with a_ij or a_ji stored, i and
// j on different ranks, each pair counted once) and the imbalance (the largest rank's rows
// over the mean; 1 is perfect).
struct RowPartition {
  std::vector<int> owner;  // rank of each global row
  std::int64_t edge_cut = 0;
  double imbalance = 1.0;
  const char* method = "";
};

// Splits the rows of the square pattern (row_ptr, col_idx) over `parts` ranks with Scotch's
// graph partitioner (the graph of A + A^T, no self loops), minimising the edge cut with the
// rows balanced; the same partition on every rank (rank 0 computes it and broadcasts it, so
// no rank depends on Scotch giving the same answer twice). One part: every row on rank 0.
RowPartition partition_rows(std::span<const std::int32_t> row_ptr,
                            std::span<const std::int32_t> col_idx, const Communicator& comm);
// The same on the calling rank alone, into `parts` parts (a rank that alone holds the matrix,
// then deals its rows out with scatter_rows); throws Error where Scotch fails or is missing.
RowPartition partition_rows(std::span<const std::int32_t> row_ptr,
                            std::span<const std::int32_t> col_idx, int parts);
// Rows dealt out as contiguous ranges of the index (the first n % parts ranges one row longer):
// the naive split that partition_rows is measured against.
RowPartition contiguous_rows(std::span<const std::int32_t> row_ptr,
                             std::span<const std::int32_t> col_idx, int parts);

// This rank's part of a matrix of `global_rows` rows whose rows owner[] deals out (owner has
// global_rows entries, the same on every rank): `rows` holds, for each of the rank's rows in
// ascending global order, its entries in global column numbers (row_ptr, global columns,
// values). Returns the local CSR matrix: rows = this rank's rows, cols = its rows plus its
// ghosts, each row's columns in ascending local order, and the distribution, built with one
// round of messages among all ranks (every rank calls it together). Throws InputError on a
// column outside the matrix.
template <class T>
CsrMatrix<T> distributed_rows(std::size_t global_rows, std::span<const int> owner,
                              std::span<const std::int32_t> row_ptr,
                              std::span<const std::int64_t> global_cols, std::span<const T> values,
                              const Communicator& comm);

// The same from the whole matrix, which every rank holds: the rank keeps its rows of it.
template <class T>
CsrMatrix<T> distribute(const CsrMatrix<T>& global, std::span<const int> owner,
                        const Communicator& comm);

// The same from the whole matrix, which rank `root` alone holds (the other ranks pass an
// empty matrix): root sends each rank its rows, so that no other rank ever holds more than
// its own (a file read once). owner[] is on every rank; every rank calls it together.
template <class T>
CsrMatrix<T> scatter_rows(const CsrMatrix<T>& global, std::span<const int> owner, int root,
                          const Communicator& comm);
// A vector's entries, which rank `root` alone holds (`global`; empty elsewhere), dealt out by
// owner[] as scatter_rows deals the rows: each rank gets its rows' entries in ascending
// global order (a distributed matrix's local order).
template <class T>
std::vector<T> scatter_vector(std::span<const T> global, std::span<const int> owner, int root,
                              const Communicator& comm);

// The rank's diagonal block of a distributed matrix: its rows and its own columns, the
// ghost columns dropped (block Jacobi's subdomain matrix); the matrix itself, without
// distribution, on one rank.
template <class T>
CsrMatrix<T> diagonal_block(const CsrMatrix<T>& a);

// A rank's subdomain grown by `layers` layers of other ranks' rows: the rows of its ghosts,
// then the rows of theirs, and so on (what an overlapping Schwarz method solves on). The
// matrix is square, its rows the rank's own then the overlap rows, with the couplings to
// unknowns outside the subdomain dropped; `overlap` is a distribution whose ghosts are the
// overlap rows, in the matrix's order, so a GhostExchange over it brings a vector's values
// there. Every rank calls it together (the rows travel from their owners); layers = 0 gives
// the diagonal block.
template <class T>
struct OverlapSubdomain {
  CsrMatrix<T> matrix;
  std::shared_ptr<const RowDistribution> overlap;
};
template <class T>
OverlapSubdomain<T> overlap_subdomain(const CsrMatrix<T>& a, int layers);

// Every rank's values of a distributed vector (each rank's `mine`, its rows in local order),
// in global order, on every rank: for output and for comparing with one rank.
template <class T>
std::vector<T> gather_rows(const RowDistribution& d, std::span<const T> mine);

// The ghost exchange of one distribution: x holds a rank's values, its rows then room for
// its ghosts (columns() values); exchange() fills the ghosts from their owners. The steps are
// public so that a device can pack from its own memory: pack() the values the peers need
// into send_buffer(), transfer(), and the ghosts are in receive_buffer() (in ghost order).
// Every rank of the distribution calls transfer() (or exchange()) together.
template <class T>
class GhostExchange {
 public:
  explicit GhostExchange(std::shared_ptr<const RowDistribution> d);

  void pack(std::span<const T> owned);
  void transfer();
  // Throws Error where x has not columns() values.
  void exchange(std::span<T> x);

  std::span<T> send_buffer() { return send_; }
  std::span<const T> receive_buffer() const { return receive_; }
  const RowDistribution& distribution() const { return *d_; }

 private:
  std::shared_ptr<const RowDistribution> d_;
  std::vector<T> send_, receive_;
  std::vector<std::size_t> send_offset_;  // per peer
};

}  // namespace solvent
