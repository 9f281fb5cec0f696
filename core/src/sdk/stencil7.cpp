#include <solvent/errors.hpp>
#include <solvent/grid/block_faces.hpp>
#include <solvent/scalar.hpp>
#include <solvent/stencil7.hpp>

namespace solvent {

template <class T>
void subtract_face_couplings(const Stencil7<T>& a, const HaloExchange<T>& halo, std::span<T> y) {
  const std::array<std::size_t, 3> n = {a.n1, a.n2, a.n3};
  const auto& e = halo.extent();
  if (y.size() != a.size() || std::size_t(e[0]) != n[0] || std::size_t(e[1]) != n[1] ||
      std::size_t(e[2]) != n[2])
    throw SolverError("subtract_face_couplings: the halo exchange is not of this stencil's block");
  const std::int64_t ext[3] = {e[0], e[1], e[2]};
  for (int face = 0; face < 6; ++face) {
    const auto ghost = halo.ghost(face);
    const auto& coupling = a.c[static_cast<std::size_t>(face) + 1];
    for (std::size_t q = 0; q < ghost.size(); ++q) {
      std::int64_t i[3];
      face_node(ext, face, static_cast<std::int64_t>(q), 0, i);
      const std::size_t m = a.index(std::size_t(i[0]), std::size_t(i[1]), std::size_t(i[2]));
      if (a.c[0][m] != T{}) y[m] -= coupling[m] * ghost[q];
    }
  }
}

template void subtract_face_couplings<double>(const Stencil7<double>&, const HaloExchange<double>&,
                                              std::span<double>);
template void subtract_face_couplings<complex>(const Stencil7<complex>&,
                                               const HaloExchange<complex>&, std::span<complex>);

}  // namespace solvent
