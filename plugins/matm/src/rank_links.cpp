#include "src/rank_links.hpp"

#include <algorithm>

namespace solvent::matm {

RankLinks::RankLinks(const GridBlock& block)
    : comm_(*block.comm),
      halo_(block),
      e_{block.extent()[0], block.extent()[1], block.extent()[2]},
      depth_(block.blocks.split[1] + block.blocks.split[2] - 1) {
  buffer_.resize(static_cast<std::size_t>(e_[0] * std::max(e_[1], e_[2])));
}

template <class Visit>
void RankLinks::strip(int face, bool ghost, index_t i0, index_t i1, Visit&& visit) const {
  const int axis = face / 2;  // 1 or 2: axis 1 is never split
  const bool upper = face % 2 == 1;
  const index_t n1 = e_[0] + 2, n2 = e_[1] + 2;
  // The plane's coordinate along `axis` in the view, and the other split axis's range.
  const index_t plane = upper ? (ghost ? e_[axis] + 1 : e_[axis]) : (ghost ? 0 : 1);
  const index_t across = e_[axis == 1 ? 2 : 1];
  std::size_t n = 0;
  for (index_t q = 1; q <= across; ++q)
    for (index_t i = i0; i < i1; ++i) {
      const index_t j = axis == 1 ? plane : q, k = axis == 1 ? q : plane;
      visit(n++, static_cast<std::size_t>(i + n1 * (j + n2 * k)));
    }
}

void RankLinks::receive_fragment(std::span<double> field, index_t i0, index_t i1, bool forward) {
  for (const int face : {2, 4}) {
    const int from = forward ? face : face + 1;  // the lower faces, or the upper ones
    const int peer = halo_.neighbours()[static_cast<std::size_t>(from)];
    if (peer < 0) continue;
    const auto count = static_cast<std::size_t>((i1 - i0) * e_[face == 2 ? 2 : 1]);
    comm_.receive(peer, std::as_writable_bytes(std::span<double>(buffer_).first(count)));
    strip(from, true, i0, i1, [&](std::size_t n, std::size_t at) { field[at] = buffer_[n]; });
  }
}

void RankLinks::send_fragment(std::span<const double> field, index_t i0, index_t i1,
                              bool forward) {
  for (const int face : {2, 4}) {
    const int to = forward ? face + 1 : face;
    const int peer = halo_.neighbours()[static_cast<std::size_t>(to)];
    if (peer < 0) continue;
    const auto count = static_cast<std::size_t>((i1 - i0) * e_[face == 2 ? 2 : 1]);
    strip(to, false, i0, i1, [&](std::size_t n, std::size_t at) { buffer_[n] = field[at]; });
    comm_.send(peer, std::as_bytes(std::span<const double>(buffer_).first(count)));
  }
}

}  // namespace solvent::matm
