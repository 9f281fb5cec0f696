#pragma once
// Seven-point grid operator in the canonical form of the MATM paper (Sukhinov et al.):
//   c0(m) u(m) - sum_{i=1..6} c_i(m) u(m_i) = F(m),
// node m = i + j*n1 + k*n1*n2, neighbours m1..m6 = m-1, m+1, m-n1, m+n1, m-n1*n2, m+n1*n2.
// A node with c0 = 0 is inactive (outside the domain) and its equation is u = 0.
//
// Distributed over ranks, each rank holds the stencil of its own block of the global grid
// (`block`, with n1 n2 n3 the block's extents and the nodes numbered within it): a
// coefficient c_i at a node next to a block face couples it to the node across the face, on
// the neighbouring rank. Its product is then the block's own (no coupling across a face)
// minus those couplings times the values the halo exchange brought
// (subtract_face_couplings); solvent::apply and the core's residuals do both.
#include <solvent/grid/grid_blocks.hpp>
#include <solvent/host_array.hpp>

#include <array>
#include <cstddef>
#include <memory>
#include <span>

namespace solvent {

template <class T>
struct Stencil7 {
  std::size_t n1 = 0, n2 = 0, n3 = 0;
  // c[0] diagonal, c[1..6] neighbour couplings; HostArray because a grid's seven arrays are
  // most of the memory a run touches before its first iteration.
  std::array<HostArray<T>, 7> c;
  // The rank's block of a grid distributed over several ranks; null when this rank holds the
  // whole grid.
  std::shared_ptr<const GridBlock> block;

  Stencil7() = default;
  Stencil7(std::size_t a, std::size_t b, std::size_t d) : n1(a), n2(b), n3(d) {
    for (auto& v : c) v = HostArray<T>(a * b * d);
  }

  std::size_t size() const { return n1 * n2 * n3; }
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const {
    return i + n1 * (j + n2 * k);
  }
  // Whether the grid goes over more than one rank.
  bool distributed() const { return block && block->comm->size() > 1; }
};

// y -= c_{f+1} x_across for every node of the block next to face f that has a neighbour,
// x_across its neighbour's value on the other rank (halo.ghost(f), after halo.transfer()):
// what the couplings across block faces add to the block's own product. Inactive nodes
// (c0 = 0) keep their row u = 0. `halo` is of Layout::Block for this stencil's block.
template <class T>
void subtract_face_couplings(const Stencil7<T>& a, const HaloExchange<T>& halo, std::span<T> y);

}  // namespace solvent
