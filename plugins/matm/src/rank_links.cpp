#include "src/rank_links.hpp"

#include <solvent_matm/pipeline.hpp>

#include <algorithm>
#include <cmath>

namespace solvent::matm {

namespace {

// The ranks a sweep passes through one after another: the slabs along axes 2 and 3 that
// hold nodes. A slab a balance by speed left empty has no part in the pipeline (its ranks'
// neighbours look past it), so a GPU rank whose CPU neighbours were given no block sweeps
// its lines whole, as on one rank, instead of in fragments waiting on nobody.
int pipeline_depth_of(const GridBlocks& blocks) {
  int slabs = 0;
  for (const int axis : {1, 2}) {
    const auto sizes = blocks.sizes(axis);
    slabs += static_cast<int>(std::ranges::count_if(sizes, [](int n) { return n > 0; }));
  }
  return std::max(1, slabs - 1);
}

}  // namespace

RankLinks::RankLinks(const GridBlock& block, bool pipelined)
    : comm_(*block.comm),
      halo_(block),
      e_{block.extent()[0], block.extent()[1], block.extent()[2]},
      depth_(pipeline_depth_of(block.blocks)),
      pipelined_(pipelined) {
  buffer_.resize(static_cast<std::size_t>(e_[0] * std::max(e_[1], e_[2])));
}

namespace {

// Fragments start a whole number of warps into the line (RankLinks::fragment).
constexpr index_t granule = 32;

}  // namespace

int RankLinks::fragments(int requested) const {
  if (!pipelined_) return 1;
  if (requested <= 0 && depth_ == 1) return 1;  // nothing to pipeline: the whole line
  const index_t units = (e_[0] + granule - 1) / granule;
  return static_cast<int>(std::min<index_t>(requested > 0 ? requested : 4 * depth_, units));
}

LinkFit RankLinks::measure() {
  // One size on every rank (the blocks' strips differ where a split is uneven), or the
  // messages would not match.
  double largest = double(buffer_.size());
  comm_.max(std::span<double>(&largest, 1));
  std::vector<int> peers;
  for (const int face : {2, 3, 4, 5})
    peers.push_back(halo_.neighbours()[static_cast<std::size_t>(face)]);
  return measure_links(comm_, peers, static_cast<std::size_t>(largest));
}

int RankLinks::fragments_for(const LinkFit& link, double work_s) const {
  if (!pipelined_) return 1;
  double slowest[2] = {work_s, double(buffer_.size()) * sizeof(double)};
  comm_.max(std::span<double>(slowest, 2));
  return pipeline_fragments(depth_, (e_[0] + granule - 1) / granule, link, slowest[0],
                            slowest[1]);
}

int pipeline_fragments(int depth, index_t units, const LinkFit& link, double work_s,
                       double strip_bytes) {
  // std::max turns a NaN time into 0 as well: a NaN count would convert to no int at all.
  const double spread =
      double(depth - 1) * (std::max(0.0, work_s) + link.seconds_per_byte * strip_bytes);
  const double best = link.latency_s > 0.0 ? std::sqrt(spread / link.latency_s) : double(units);
  return static_cast<int>(std::clamp<double>(std::round(best), 1.0, double(units)));
}

std::pair<index_t, index_t> RankLinks::fragment(int q, int count, bool forward) const {
  const index_t length = e_[0];
  const index_t units = (length + granule - 1) / granule;
  // b(p): where fragment p starts, counted from the line's start in the sweep's direction.
  auto b = [&](int p) { return std::min(length, granule * (units * p / count)); };
  // The own nodes of axis 1 are 1 .. length in the view (after the ghost node 0).
  if (forward) return {1 + b(q), 1 + b(q + 1)};
  return {1 + length - b(q + 1), 1 + length - b(q)};
}

Strip RankLinks::strip(int face, bool ghost, index_t i0, index_t i1) const {
  const int axis = face / 2;  // 1 or 2
  const bool upper = face % 2 == 1;
  const index_t n1 = e_[0] + 2, n2 = e_[1] + 2;
  // The plane's coordinate along `axis` in the view; the rows run along the other split
  // axis, from its first own node.
  const index_t plane = upper ? (ghost ? e_[axis] + 1 : e_[axis]) : (ghost ? 0 : 1);
  Strip s;
  s.face = face;
  s.peer = halo_.neighbours()[static_cast<std::size_t>(face)];
  s.length = static_cast<std::size_t>(i1 - i0);
  if (axis == 1) {
    s.first = static_cast<std::size_t>(i0 + n1 * (plane + n2));
    s.pitch = static_cast<std::size_t>(n1 * n2);
    s.rows = static_cast<std::size_t>(e_[2]);
  } else {
    s.first = static_cast<std::size_t>(i0 + n1 * (1 + n2 * plane));
    s.pitch = static_cast<std::size_t>(n1);
    s.rows = static_cast<std::size_t>(e_[1]);
  }
  return s;
}

std::vector<Strip> RankLinks::fragment_strips(index_t i0, index_t i1, bool forward,
                                              bool incoming) const {
  std::vector<Strip> out;
  for (const int face : {2, 4}) {
    // A sweep comes in through the lower faces (forward) or the upper ones, and goes on
    // through the others.
    const int f = forward == incoming ? face : face + 1;
    if (halo_.neighbours()[static_cast<std::size_t>(f)] >= 0)
      out.push_back(strip(f, incoming, i0, i1));
  }
  return out;
}

void RankLinks::send(const Strip& s, std::span<const double> message) const {
  comm_.send(s.peer, std::as_bytes(message.first(s.size())));
}

void RankLinks::receive(const Strip& s, std::span<double> message) const {
  comm_.receive(s.peer, std::as_writable_bytes(message.first(s.size())));
}

void RankLinks::receive_fragment(std::span<double> field, index_t i0, index_t i1, bool forward) {
  for (const Strip& s : fragment_strips(i0, i1, forward, true)) {
    if (!pipelined_) {
      for (std::size_t r = 0; r < s.rows; ++r)
        std::fill_n(field.begin() + static_cast<std::ptrdiff_t>(s.first + r * s.pitch), s.length,
                    0.0);
      continue;
    }
    receive(s, buffer_);
    for (std::size_t r = 0; r < s.rows; ++r)
      std::copy_n(buffer_.begin() + static_cast<std::ptrdiff_t>(r * s.length), s.length,
                  field.begin() + static_cast<std::ptrdiff_t>(s.first + r * s.pitch));
  }
}

void RankLinks::send_fragment(std::span<const double> field, index_t i0, index_t i1,
                              bool forward) {
  if (!pipelined_) return;
  for (const Strip& s : fragment_strips(i0, i1, forward, false)) {
    for (std::size_t r = 0; r < s.rows; ++r)
      std::copy_n(field.begin() + static_cast<std::ptrdiff_t>(s.first + r * s.pitch), s.length,
                  buffer_.begin() + static_cast<std::ptrdiff_t>(r * s.length));
    send(s, buffer_);
  }
}

}  // namespace solvent::matm
