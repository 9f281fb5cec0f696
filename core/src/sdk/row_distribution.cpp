#include <solvent/csr_matrix.hpp>
#include <solvent/errors.hpp>
#include <solvent/scalar.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <string>

namespace solvent {
namespace {

// Fixed-width integers in a byte string: the requests the ranks send each other.
void put(std::string& out, std::int64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
std::int64_t take(const std::string& in, std::size_t& at) {
  std::int64_t v = 0;
  std::memcpy(&v, in.data() + at, sizeof v);
  at += sizeof v;
  return v;
}

// The exchange, from every rank's ghost list: each rank sends (as one gather to all ranks)
// the global rows it needs; each owner keeps the requests addressed to it, in the
// requester's ghost order, as its send lists. One gather per distribution: no rank knows
// another's ghosts otherwise, and the lists are small beside the matrix.
void build_exchange(RowDistribution& d) {
  const Communicator& comm = *d.comm;
  const int me = comm.rank();
  std::string requests;
  for (std::size_t g = 0; g < d.ghosts.size(); ++g) {
    put(requests, d.owner[g]);
    put(requests, d.ghosts[g]);
  }
  const auto all = comm.gather_all(requests);
  std::map<int, RowDistribution::Peer> peers;
  for (int r = 0; r < comm.size(); ++r) {
    if (r == me) continue;
    const auto& in = all[static_cast<std::size_t>(r)];
    for (std::size_t at = 0; at < in.size();) {
      const auto owner = static_cast<int>(take(in, at));
      const std::int64_t row = take(in, at);
      if (owner == me)
        peers[r].send_rows.push_back(static_cast<std::int32_t>(
            std::lower_bound(d.owned.begin(), d.owned.end(), row) - d.owned.begin()));
    }
  }
  for (std::size_t g = 0; g < d.ghosts.size(); ++g) {
    auto& p = peers[d.owner[g]];
    if (p.ghost_count == 0) p.ghost_first = g;
    ++p.ghost_count;
  }
  for (auto& [r, p] : peers) {
    p.rank = r;
    d.peers.push_back(std::move(p));
  }
}

// The rows of `wanted` (global indices, with their owners), from their owners: each rank
// sends its requests to all (a gather), each owner answers those addressed to it with the
// row's global columns, their owners and values, and its own local index of the row.
template <class T>
struct FetchedRow {
  std::int32_t owner_local = 0;
  std::vector<std::int64_t> cols;
  std::vector<int> owners;
  std::vector<T> values;
};

template <class T>
std::map<std::int64_t, FetchedRow<T>> fetch_rows(const CsrMatrix<T>& a,
                                                 const std::map<std::int64_t, int>& wanted) {
  const RowDistribution& d = *a.distribution;
  const Communicator& comm = *d.comm;
  const int me = comm.rank();
  std::string requests;
  for (const auto& [row, owner] : wanted) {
    put(requests, owner);
    put(requests, row);
  }
  const auto all = comm.gather_all(requests);
  std::string answers;
  for (int r = 0; r < comm.size(); ++r) {
    const auto& in = all[static_cast<std::size_t>(r)];
    for (std::size_t at = 0; at < in.size();) {
      const auto owner = static_cast<int>(take(in, at));
      const std::int64_t row = take(in, at);
      if (owner != me) continue;
      const auto i = static_cast<std::size_t>(
          std::lower_bound(d.owned.begin(), d.owned.end(), row) - d.owned.begin());
      put(answers, r);
      put(answers, row);
      put(answers, static_cast<std::int64_t>(i));
      put(answers, a.row_ptr[i + 1] - a.row_ptr[i]);
      for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        const auto j = static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(p)]);
        const bool own = j < d.rows();
        put(answers, own ? d.owned[j] : d.ghosts[j - d.rows()]);
        put(answers, own ? me : d.owner[j - d.rows()]);
        std::string v(sizeof(T), '\0');
        std::memcpy(v.data(), &a.values[static_cast<std::size_t>(p)], sizeof(T));
        answers += v;
      }
    }
  }
  const auto replies = comm.gather_all(answers);
  std::map<std::int64_t, FetchedRow<T>> rows;
  for (const auto& in : replies)
    for (std::size_t at = 0; at < in.size();) {
      const auto to = static_cast<int>(take(in, at));
      const std::int64_t row = take(in, at);
      FetchedRow<T> f;
      f.owner_local = static_cast<std::int32_t>(take(in, at));
      const std::int64_t count = take(in, at);
      for (std::int64_t k = 0; k < count; ++k) {
        f.cols.push_back(take(in, at));
        f.owners.push_back(static_cast<int>(take(in, at)));
        T v{};
        std::memcpy(&v, in.data() + at, sizeof(T));
        at += sizeof(T);
        f.values.push_back(v);
      }
      if (to == me) rows.emplace(row, std::move(f));
    }
  return rows;
}

// One rank's message to another of any length: its length, then the bytes in pieces of at
// most 1 GiB (MPI counts bytes in an int).
constexpr std::size_t piece = std::size_t{1} << 30;

void send_message(const Communicator& comm, int peer, const std::string& bytes) {
  const std::int64_t n = static_cast<std::int64_t>(bytes.size());
  comm.send(peer, std::as_bytes(std::span(&n, 1)));
  for (std::size_t at = 0; at < bytes.size(); at += piece)
    comm.send(peer, std::as_bytes(std::span(bytes.data() + at, std::min(piece, bytes.size() - at))));
}

std::string receive_message(const Communicator& comm, int peer) {
  std::int64_t n = 0;
  comm.receive(peer, std::as_writable_bytes(std::span(&n, 1)));
  std::string bytes(static_cast<std::size_t>(n), '\0');
  for (std::size_t at = 0; at < bytes.size(); at += piece)
    comm.receive(peer, std::as_writable_bytes(
                           std::span(bytes.data() + at, std::min(piece, bytes.size() - at))));
  return bytes;
}

template <class V>
void put_all(std::string& out, const std::vector<V>& v) {
  put(out, static_cast<std::int64_t>(v.size()));
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(V));
}
template <class V>
std::vector<V> take_all(const std::string& in, std::size_t& at) {
  std::vector<V> v(static_cast<std::size_t>(take(in, at)));
  std::copy_n(in.data() + at, v.size() * sizeof(V), reinterpret_cast<char*>(v.data()));
  at += v.size() * sizeof(V);
  return v;
}

// Rank r's rows of the whole matrix, in ascending global order, with global column numbers.
template <class T>
struct RowsOfRank {
  std::vector<std::int32_t> row_ptr{0};
  std::vector<std::int64_t> cols;
  std::vector<T> values;
};

template <class T>
RowsOfRank<T> rows_of_rank(const CsrMatrix<T>& global, std::span<const int> owner, int r) {
  RowsOfRank<T> m;
  for (std::size_t i = 0; i < global.rows; ++i) {
    if (owner[i] != r) continue;
    for (auto p = global.row_ptr[i]; p < global.row_ptr[i + 1]; ++p) {
      m.cols.push_back(global.col_idx[static_cast<std::size_t>(p)]);
      m.values.push_back(global.values[static_cast<std::size_t>(p)]);
    }
    m.row_ptr.push_back(static_cast<std::int32_t>(m.cols.size()));
  }
  return m;
}

}  // namespace

template <class T>
CsrMatrix<T> distributed_rows(std::size_t global_rows, std::span<const int> owner,
                              std::span<const std::int32_t> row_ptr,
                              std::span<const std::int64_t> global_cols, std::span<const T> values,
                              const Communicator& comm) {
  if (owner.size() != global_rows)
    throw Error(fmt::format("distributed_rows: {} owners for {} rows", owner.size(), global_rows));
  auto d = std::make_shared<RowDistribution>();
  d->comm = &comm;
  d->global_rows = global_rows;
  const int me = comm.rank();
  // Every rank's local numbering follows from owner[] alone: its rows in ascending order.
  std::vector<std::int32_t> local_of(global_rows);
  d->rows_per_rank.assign(static_cast<std::size_t>(comm.size()), 0);
  for (std::size_t i = 0; i < global_rows; ++i) {
    const int r = owner[i];
    if (r < 0 || r >= comm.size())
      throw Error(
          fmt::format("distributed_rows: row {} is given to rank {} of {}", i, r, comm.size()));
    local_of[i] = static_cast<std::int32_t>(d->rows_per_rank[static_cast<std::size_t>(r)]++);
    if (r == me) d->owned.push_back(static_cast<std::int64_t>(i));
  }
  for (int r = 0; r < me; ++r) d->first_row += d->rows_per_rank[static_cast<std::size_t>(r)];
  const std::size_t rows = d->owned.size();
  if (row_ptr.size() != rows + 1)
    throw Error(fmt::format("distributed_rows: {} row pointers for the rank's {} rows",
                            row_ptr.size(), rows));

  // The ghosts: the columns of other ranks' rows, sorted by owner then global index.
  std::vector<std::int64_t> ghosts;
  for (const std::int64_t j : global_cols) {
    if (j < 0 || static_cast<std::size_t>(j) >= global_rows)
      throw InputError(fmt::format("column {} of a matrix of {} columns", j + 1, global_rows));
    if (owner[static_cast<std::size_t>(j)] != me) ghosts.push_back(j);
  }
  const auto by_owner = [&](std::int64_t a, std::int64_t b) {
    const int oa = owner[static_cast<std::size_t>(a)], ob = owner[static_cast<std::size_t>(b)];
    return oa != ob ? oa < ob : a < b;
  };
  std::sort(ghosts.begin(), ghosts.end(), by_owner);
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  d->ghosts = ghosts;
  for (const auto g : ghosts) {
    d->owner.push_back(owner[static_cast<std::size_t>(g)]);
    d->owner_local.push_back(local_of[static_cast<std::size_t>(g)]);
  }

  CsrMatrix<T> a;
  a.rows = rows;
  a.cols = rows + ghosts.size();
  a.row_ptr.assign(row_ptr.begin(), row_ptr.end());
  a.col_idx.resize(global_cols.size());
  a.values.assign(values.begin(), values.end());
  const auto local_column = [&](std::int64_t j) {
    if (owner[static_cast<std::size_t>(j)] == me) return local_of[static_cast<std::size_t>(j)];
    const auto at = std::lower_bound(ghosts.begin(), ghosts.end(), j, by_owner);
    return static_cast<std::int32_t>(rows + static_cast<std::size_t>(at - ghosts.begin()));
  };
  // Each row's entries in ascending local column: its own unknowns, then its ghosts.
  std::vector<std::pair<std::int32_t, T>> row;
  for (std::size_t i = 0; i < rows; ++i) {
    row.clear();
    for (auto p = row_ptr[i]; p < row_ptr[i + 1]; ++p)
      row.emplace_back(local_column(global_cols[static_cast<std::size_t>(p)]),
                       values[static_cast<std::size_t>(p)]);
    std::stable_sort(row.begin(), row.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k < row.size(); ++k) {
      a.col_idx[static_cast<std::size_t>(row_ptr[i]) + k] = row[k].first;
      a.values[static_cast<std::size_t>(row_ptr[i]) + k] = row[k].second;
    }
  }
  build_exchange(*d);
  a.distribution = std::move(d);
  return a;
}

template <class T>
CsrMatrix<T> distribute(const CsrMatrix<T>& global, std::span<const int> owner,
                        const Communicator& comm) {
  const auto m = rows_of_rank(global, owner, comm.rank());
  return distributed_rows<T>(global.rows, owner, m.row_ptr, m.cols, m.values, comm);
}

template <class T>
CsrMatrix<T> scatter_rows(const CsrMatrix<T>& global, std::span<const int> owner, int root,
                          const Communicator& comm) {
  const int me = comm.rank();
  if (me == root && global.rows != owner.size())
    throw Error(fmt::format("scatter_rows: {} owners for {} rows", owner.size(), global.rows));
  RowsOfRank<T> mine;
  if (me == root) {
    // One rank's rows at a time, so that root holds the whole matrix and one rank's copy.
    for (int r = 0; r < comm.size(); ++r) {
      auto m = rows_of_rank(global, owner, r);
      if (r == me) {
        mine = std::move(m);
        continue;
      }
      std::string bytes;
      put_all(bytes, m.row_ptr);
      put_all(bytes, m.cols);
      put_all(bytes, m.values);
      send_message(comm, r, bytes);
    }
  } else {
    const std::string bytes = receive_message(comm, root);
    std::size_t at = 0;
    mine.row_ptr = take_all<std::int32_t>(bytes, at);
    mine.cols = take_all<std::int64_t>(bytes, at);
    mine.values = take_all<T>(bytes, at);
  }
  return distributed_rows<T>(owner.size(), owner, mine.row_ptr, mine.cols, mine.values, comm);
}

template <class T>
std::vector<T> scatter_vector(std::span<const T> global, std::span<const int> owner, int root,
                              const Communicator& comm) {
  const int me = comm.rank();
  if (me == root && global.size() != owner.size())
    throw Error(fmt::format("scatter_vector: {} owners for {} entries", owner.size(), global.size()));
  const auto entries_of = [&](int r) {
    std::vector<T> v;
    for (std::size_t i = 0; i < owner.size(); ++i)
      if (owner[i] == r) v.push_back(global[i]);
    return v;
  };
  if (me != root) {
    const std::string bytes = receive_message(comm, root);
    std::size_t at = 0;
    return take_all<T>(bytes, at);
  }
  for (int r = 0; r < comm.size(); ++r) {
    if (r == me) continue;
    std::string bytes;
    put_all(bytes, entries_of(r));
    send_message(comm, r, bytes);
  }
  return entries_of(me);
}

template <class T>
CsrMatrix<T> diagonal_block(const CsrMatrix<T>& a) {
  CsrMatrix<T> b;
  b.rows = b.cols = a.rows;
  b.row_ptr.push_back(0);
  // Each row's own columns come before its ghosts (distributed_rows sorts them so).
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = a.col_idx[static_cast<std::size_t>(p)];
      if (static_cast<std::size_t>(j) >= a.rows) break;
      b.col_idx.push_back(j);
      b.values.push_back(a.values[static_cast<std::size_t>(p)]);
    }
    b.row_ptr.push_back(static_cast<std::int32_t>(b.col_idx.size()));
  }
  return b;
}

template <class T>
OverlapSubdomain<T> overlap_subdomain(const CsrMatrix<T>& a, int layers) {
  if (!a.distribution) return {diagonal_block(a), nullptr};
  const RowDistribution& d = *a.distribution;
  const int me = d.comm->rank();
  // Layer by layer: the rows of the unknowns the subdomain couples to and does not hold.
  std::map<std::int64_t, FetchedRow<T>> overlap;
  std::map<std::int64_t, int> frontier;
  for (std::size_t g = 0; g < d.ghosts.size(); ++g) frontier.emplace(d.ghosts[g], d.owner[g]);
  for (int layer = 0; layer < layers; ++layer) {
    // Every rank takes part in every layer's messages, an empty frontier or not.
    auto rows = fetch_rows(a, frontier);
    frontier.clear();
    for (auto& [row, f] : rows) {
      for (std::size_t k = 0; k < f.cols.size(); ++k)
        if (f.owners[k] != me && !overlap.count(f.cols[k]) && !rows.count(f.cols[k]))
          frontier.emplace(f.cols[k], f.owners[k]);
      overlap.emplace(row, std::move(f));
    }
  }
  auto dist = std::make_shared<RowDistribution>();
  dist->comm = d.comm;
  dist->global_rows = d.global_rows;
  dist->owned = d.owned;
  dist->first_row = d.first_row;
  dist->rows_per_rank = d.rows_per_rank;
  // Owners of the overlap rows: known from the frontier that requested them.
  std::map<std::int64_t, int> owner_of;
  for (std::size_t g = 0; g < d.ghosts.size(); ++g) owner_of.emplace(d.ghosts[g], d.owner[g]);
  for (const auto& [row, f] : overlap)
    for (std::size_t k = 0; k < f.cols.size(); ++k) owner_of.emplace(f.cols[k], f.owners[k]);
  // The overlap rows sorted by owner, then global index (a distribution's ghost order).
  std::vector<std::pair<int, std::int64_t>> order;
  for (const auto& [row, f] : overlap) order.emplace_back(owner_of.at(row), row);
  std::sort(order.begin(), order.end());
  std::map<std::int64_t, std::int32_t> index;  // global -> subdomain row
  for (std::size_t i = 0; i < d.rows(); ++i)
    index.emplace(d.owned[i], static_cast<std::int32_t>(i));
  for (const auto& [owner, row] : order) {
    index.emplace(row, static_cast<std::int32_t>(d.rows() + dist->ghosts.size()));
    dist->ghosts.push_back(row);
    dist->owner.push_back(owner);
    dist->owner_local.push_back(overlap.at(row).owner_local);
  }
  build_exchange(*dist);

  OverlapSubdomain<T> s;
  auto& m = s.matrix;
  m.rows = m.cols = d.rows() + dist->ghosts.size();
  m.row_ptr.push_back(0);
  std::vector<std::pair<std::int32_t, T>> row;
  const auto finish_row = [&] {
    std::sort(row.begin(), row.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [j, v] : row) {
      m.col_idx.push_back(j);
      m.values.push_back(v);
    }
    m.row_ptr.push_back(static_cast<std::int32_t>(m.col_idx.size()));
    row.clear();
  };
  for (std::size_t i = 0; i < d.rows(); ++i) {
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const auto j = static_cast<std::size_t>(a.col_idx[static_cast<std::size_t>(p)]);
      if (j < d.rows()) {
        row.emplace_back(static_cast<std::int32_t>(j), a.values[static_cast<std::size_t>(p)]);
      } else if (const auto at = index.find(d.ghosts[j - d.rows()]); at != index.end()) {
        row.emplace_back(at->second, a.values[static_cast<std::size_t>(p)]);
      }
    }
    finish_row();
  }
  for (const auto& g : dist->ghosts) {
    const auto& f = overlap.at(g);
    for (std::size_t k = 0; k < f.cols.size(); ++k)
      if (const auto at = index.find(f.cols[k]); at != index.end())
        row.emplace_back(at->second, f.values[k]);
    finish_row();
  }
  s.overlap = std::move(dist);
  return s;
}

template <class T>
std::vector<T> gather_rows(const RowDistribution& d, std::span<const T> mine) {
  if (mine.size() != d.rows())
    throw Error(
        fmt::format("gather_rows: {} values for the rank's {} rows", mine.size(), d.rows()));
  // From the bytes' range, not memcpy: a rank without rows has no data() to copy from, and
  // memcpy from a null pointer is undefined even for no bytes (UBSan reports it).
  const std::string bytes(reinterpret_cast<const char*>(mine.data()), mine.size_bytes());
  const auto all = d.comm->gather_all(bytes);
  // Every rank's rows are its owner[] rows in ascending order; recover them from the
  // ranks' counts and the global owners, which each rank knows only as its own, so the
  // global indices travel too.
  const std::string ids(reinterpret_cast<const char*>(d.owned.data()),
                        d.owned.size() * sizeof(std::int64_t));
  const auto all_ids = d.comm->gather_all(ids);
  std::vector<T> out(d.global_rows, T{});
  for (std::size_t r = 0; r < all.size(); ++r) {
    const std::size_t n = all[r].size() / sizeof(T);
    for (std::size_t k = 0; k < n; ++k) {
      std::int64_t i = 0;
      T v{};
      std::memcpy(&i, all_ids[r].data() + k * sizeof i, sizeof i);
      std::memcpy(&v, all[r].data() + k * sizeof v, sizeof v);
      out[static_cast<std::size_t>(i)] = v;
    }
  }
  return out;
}

template <class T>
GhostExchange<T>::GhostExchange(std::shared_ptr<const RowDistribution> d) : d_(std::move(d)) {
  std::size_t sends = 0;
  for (const auto& p : d_->peers) {
    send_offset_.push_back(sends);
    sends += p.send_rows.size();
  }
  send_.assign(sends, T{});
  receive_.assign(d_->ghosts.size(), T{});
}

template <class T>
void GhostExchange<T>::pack(std::span<const T> owned) {
  for (std::size_t k = 0; k < d_->peers.size(); ++k) {
    const auto& rows = d_->peers[k].send_rows;
    for (std::size_t q = 0; q < rows.size(); ++q)
      send_[send_offset_[k] + q] = owned[static_cast<std::size_t>(rows[q])];
  }
}

template <class T>
void GhostExchange<T>::transfer() {
  std::vector<Communicator::Transfer> t;
  t.reserve(d_->peers.size());
  for (std::size_t k = 0; k < d_->peers.size(); ++k) {
    const auto& p = d_->peers[k];
    t.push_back(
        {p.rank,
         std::as_bytes(std::span<const T>(send_).subspan(send_offset_[k], p.send_rows.size())),
         std::as_writable_bytes(std::span<T>(receive_).subspan(p.ghost_first, p.ghost_count))});
  }
  d_->comm->exchange(std::span<const Communicator::Transfer>(t));
}

template <class T>
void GhostExchange<T>::exchange(std::span<T> x) {
  if (x.size() != d_->columns())
    throw Error(fmt::format("ghost exchange: a vector of {} values for {} rows and {} ghosts",
                            x.size(), d_->rows(), d_->ghosts.size()));
  pack(x.first(d_->rows()));
  transfer();
  std::copy(receive_.begin(), receive_.end(), x.begin() + static_cast<std::ptrdiff_t>(d_->rows()));
}

#define SOLVENT_ROW_DISTRIBUTION(T)                                                   \
  template CsrMatrix<T> distributed_rows<T>(                                          \
      std::size_t, std::span<const int>, std::span<const std::int32_t>,               \
      std::span<const std::int64_t>, std::span<const T>, const Communicator&);        \
  template CsrMatrix<T> distribute<T>(const CsrMatrix<T>&, std::span<const int>,      \
                                      const Communicator&);                           \
  template CsrMatrix<T> scatter_rows<T>(const CsrMatrix<T>&, std::span<const int>, int, \
                                        const Communicator&);                         \
  template std::vector<T> scatter_vector<T>(std::span<const T>, std::span<const int>, \
                                            int, const Communicator&);                \
  template std::vector<T> gather_rows<T>(const RowDistribution&, std::span<const T>); \
  template CsrMatrix<T> diagonal_block<T>(const CsrMatrix<T>&);                       \
  template OverlapSubdomain<T> overlap_subdomain<T>(const CsrMatrix<T>&, int);        \
  template class GhostExchange<T>;
SOLVENT_ROW_DISTRIBUTION(double)
SOLVENT_ROW_DISTRIBUTION(complex)
#undef SOLVENT_ROW_DISTRIBUTION

}  // namespace solvent
