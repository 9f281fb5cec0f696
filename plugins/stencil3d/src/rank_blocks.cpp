#include "src/rank_blocks.hpp"

#include <solvent/errors.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace solvent::stencil3d {
namespace {

// Copies the nodes of `part` from an array laid out as box `from` into one laid out as box
// `to`; both contain `part`. Rows along axis 1 are contiguous in every layout.
template <class T>
void copy_box(const Box& part, const Box& from, const T* src, const Box& to, T* dst) {
  for (std::int32_t k = part.offset[2]; k < part.offset[2] + part.extent[2]; ++k)
    for (std::int32_t j = part.offset[1]; j < part.offset[1] + part.extent[1]; ++j)
      std::copy_n(src + from.index(part.offset[0], j, k), part.extent[0],
                  dst + to.index(part.offset[0], j, k));
}

template <class T>
std::vector<T> cut(const Box& part, const Box& from, const std::vector<T>& v) {
  std::vector<T> out(static_cast<std::size_t>(part.size()));
  copy_box(part, from, v.data(), part, out.data());
  return out;
}

// A rank's block of f, c, n (continuous mode) and owner, one after another, as bytes.
std::size_t bytes_per_node(const SimulationState& s) {
  return (s.n.empty() ? 2 : 3) * sizeof(double) + sizeof(std::int32_t);
}

template <class T>
std::byte* put(std::byte* at, const std::vector<T>& v) {
  std::memcpy(at, v.data(), v.size() * sizeof(T));
  return at + v.size() * sizeof(T);
}

template <class T>
const std::byte* take(const std::byte* at, std::vector<T>& v) {
  std::memcpy(v.data(), at, v.size() * sizeof(T));
  return at + v.size() * sizeof(T);
}

}  // namespace

Box block_box(const GridBlocks& blocks, int rank) {
  const auto o = blocks.offset(rank), e = blocks.extent(rank);
  return {{o[0], o[1], o[2]}, {e[0], e[1], e[2]}};
}

Box window_box(const GridBlocks& blocks, int rank, int depth) {
  Box w = block_box(blocks, rank);
  for (int a = 0; a < 3; ++a) {
    const std::int32_t lo = std::max(0, w.offset[a] - depth);
    const std::int32_t hi = std::min(blocks.nodes[a], w.offset[a] + w.extent[a] + depth);
    w.offset[a] = lo;
    w.extent[a] = hi - lo;
  }
  return w;
}

std::optional<SimulationState> gather_whole(const SimulationState& part, const GridBlocks& blocks,
                                            const Communicator& comm) {
  const int me = comm.rank();
  if (me != 0) {
    const Box b = block_box(blocks, me);
    std::vector<std::byte> bytes(static_cast<std::size_t>(b.size()) * bytes_per_node(part));
    std::byte* at = bytes.data();
    at = put(at, cut(b, part.window, part.f));
    at = put(at, cut(b, part.window, part.c));
    if (!part.n.empty()) at = put(at, cut(b, part.window, part.n));
    put(at, cut(b, part.window, part.owner));
    comm.exchange(0, bytes, {});
    return std::nullopt;
  }
  SimulationState whole = without_fields(part);
  const Box all = whole_grid(solvent::angiogenesis_3d::grid_of(part.p));
  const auto size = static_cast<std::size_t>(all.size());
  whole.f.assign(size, 0.0);
  whole.c.assign(size, 0.0);
  whole.owner.assign(size, -1);
  if (!part.n.empty()) whole.n.assign(size, 0.0);
  whole.window = whole.block = all;
  for (int r = 0; r < comm.size(); ++r) {
    const Box b = block_box(blocks, r);
    const auto nodes = static_cast<std::size_t>(b.size());
    std::vector<double> f(nodes), c(nodes), n(part.n.empty() ? 0 : nodes);
    std::vector<std::int32_t> owner(nodes);
    if (r == 0) {
      f = cut(b, part.window, part.f);
      c = cut(b, part.window, part.c);
      if (!n.empty()) n = cut(b, part.window, part.n);
      owner = cut(b, part.window, part.owner);
    } else {
      std::vector<std::byte> bytes(nodes * bytes_per_node(part));
      comm.exchange(r, {}, bytes);
      const std::byte* at = bytes.data();
      at = take(at, f);
      at = take(at, c);
      if (!n.empty()) at = take(at, n);
      take(at, owner);
    }
    copy_box(b, b, f.data(), all, whole.f.data());
    copy_box(b, b, c.data(), all, whole.c.data());
    if (!n.empty()) copy_box(b, b, n.data(), all, whole.n.data());
    copy_box(b, b, owner.data(), all, whole.owner.data());
  }
  return whole;
}

std::int32_t share_decisions(const Communicator& comm, std::vector<TipDecision>& decisions,
                             std::int32_t bad) {
  std::string mine(sizeof bad, '\0');
  std::memcpy(mine.data(), &bad, sizeof bad);
  mine.append(reinterpret_cast<const char*>(decisions.data()),
              decisions.size() * sizeof(TipDecision));
  decisions.clear();
  std::int32_t total = 0;
  for (const std::string& theirs : comm.gather_all(mine)) {
    if (theirs.size() < sizeof bad || (theirs.size() - sizeof bad) % sizeof(TipDecision) != 0)
      throw solvent::Error("explicit-stencil3d: a rank sent a malformed list of tip decisions");
    std::int32_t count = 0;
    std::memcpy(&count, theirs.data(), sizeof count);
    total += count;
    for (std::size_t at = sizeof bad; at < theirs.size(); at += sizeof(TipDecision)) {
      TipDecision d;
      std::memcpy(&d, theirs.data() + at, sizeof d);
      decisions.push_back(d);
    }
  }
  std::sort(decisions.begin(), decisions.end(),
            [](const TipDecision& a, const TipDecision& b) { return a.tip < b.tip; });
  return total;
}

std::int32_t share_decisions(const Communicator& comm, std::int32_t tips, std::int32_t* target,
                             std::int32_t* met, std::int32_t* site, std::int32_t bad) {
  std::vector<TipDecision> decisions;
  for (std::int32_t t = 0; t < tips; ++t)
    if (target[t] >= 0 || site[t] >= 0) decisions.push_back({t, target[t], met[t], site[t]});
  const std::int32_t total = share_decisions(comm, decisions, bad);
  for (const TipDecision& d : decisions) {
    target[d.tip] = d.target;
    met[d.tip] = d.met;
    site[d.tip] = d.site;
  }
  return total;
}

WindowHalo::WindowHalo(const GridBlocks& blocks, const Communicator& comm, const Box& window,
                       int fields)
    : comm_(comm), window_(window), fields_(fields) {
  const Box block = block_box(blocks, comm.rank());
  const auto peers = blocks.neighbours(comm.rank());
  for (int a = 0; a < 3; ++a) {
    std::size_t at = 0;
    for (int side = 0; side < 2; ++side) {
      const int peer = peers[static_cast<std::size_t>(2 * a + side)];
      if (peer < 0) continue;
      // Along the axes done before this one the slab spans the window, along the others
      // the block; along this one it is one layer: the block's last, and the one beyond.
      Slab slab{peer, block, block, at};
      for (int b = 0; b < a; ++b) {
        slab.send.offset[b] = slab.receive.offset[b] = window.offset[b];
        slab.send.extent[b] = slab.receive.extent[b] = window.extent[b];
      }
      const std::int32_t last = side == 0 ? block.offset[a] : block.offset[a] + block.extent[a] - 1;
      slab.send.offset[a] = last;
      slab.receive.offset[a] = side == 0 ? last - 1 : last + 1;
      slab.send.extent[a] = slab.receive.extent[a] = 1;
      at += static_cast<std::size_t>(fields) * static_cast<std::size_t>(slab.send.size());
      slabs_[static_cast<std::size_t>(a)].push_back(slab);
    }
    values_[static_cast<std::size_t>(a)] = at;
  }
  const std::size_t most = *std::max_element(values_.begin(), values_.end());
  send_.resize(most);
  receive_.resize(most);
}

void WindowHalo::transfer(int axis, std::span<const double> send, std::span<double> receive) const {
  std::vector<Communicator::Transfer> transfers;
  for (const Slab& slab : slabs(axis)) {
    const std::size_t values =
        static_cast<std::size_t>(fields_) * static_cast<std::size_t>(slab.send.size());
    transfers.push_back({slab.peer, std::as_bytes(send.subspan(slab.at, values)),
                         std::as_writable_bytes(receive.subspan(slab.at, values))});
  }
  comm_.exchange(transfers);
}

void WindowHalo::exchange(std::span<double* const> fields) {
  for (int a = 0; a < 3; ++a) {
    for (const Slab& slab : slabs(a)) {
      double* out = send_.data() + slab.at;
      for (double* field : fields) {
        copy_box(slab.send, window_, field, slab.send, out);
        out += slab.send.size();
      }
    }
    transfer(a, send_, receive_);
    for (const Slab& slab : slabs(a)) {
      const double* in = receive_.data() + slab.at;
      for (double* field : fields) {
        copy_box(slab.receive, slab.receive, in, window_, field);
        in += slab.receive.size();
      }
    }
  }
}

std::int64_t segments_between_blocks(const SimulationState& s, const GridBlocks& blocks) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  const std::int32_t n = std::min(s.counters.segments, s.segment_capacity());
  std::int64_t ends_outside = 0;  // over all blocks: each crossing segment counts twice
  for (int r = 0; r < blocks.ranks(); ++r) {
    const Box b = block_box(blocks, r);
    for (std::int32_t q = 0; q < n; ++q) {
      const std::size_t at = 2 * static_cast<std::size_t>(q);
      ends_outside += (b.find(g, s.segments[at]) >= 0) != (b.find(g, s.segments[at + 1]) >= 0);
    }
  }
  return ends_outside / 2;
}

}  // namespace solvent::stencil3d
