#pragma once
// Seven-point grid operator in the canonical form of the MATM paper (Sukhinov et al.):
//   c0(m) u(m) - sum_{i=1..6} c_i(m) u(m_i) = F(m),
// node m = i + j*n1 + k*n1*n2, neighbours m1..m6 = m-1, m+1, m-n1, m+n1, m-n1*n2, m+n1*n2.
// A node with c0 = 0 is inactive (outside the domain) and its equation is u = 0.
#include <array>
#include <cstddef>
#include <vector>

namespace solvent {

template <class T>
struct Stencil7 {
  std::size_t n1 = 0, n2 = 0, n3 = 0;
  std::array<std::vector<T>, 7> c;  // c[0] diagonal, c[1..6] neighbour couplings

  Stencil7() = default;
  Stencil7(std::size_t a, std::size_t b, std::size_t d) : n1(a), n2(b), n3(d) {
    for (auto& v : c) v.assign(a * b * d, T{});
  }

  std::size_t size() const { return n1 * n2 * n3; }
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const {
    return i + n1 * (j + n2 * k);
  }
};

}  // namespace solvent
