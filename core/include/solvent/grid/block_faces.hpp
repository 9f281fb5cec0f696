#pragma once
// The nodes next to a block's faces, in the order a halo exchange packs them
// (HaloExchange, <solvent/grid/grid_blocks.hpp>): written once for the CPU and for CUDA kernels.
// Face f lies across axis a = f / 2, on the lower side for even f, the upper for odd; its
// nodes run over the two other axes, the lower axis fastest.
#include <solvent/device/host_device.hpp>

#include <cstdint>

namespace solvent {

// The block coordinates (i[0], i[1], i[2]) of node q of face `face` of a block with extents e,
// shifted outwards by `beyond` layers (0: the block's own layer; 1: the neighbour's layer).
SOLVENT_HD inline void face_node(const std::int64_t e[3], int face, std::int64_t q,
                                 std::int64_t beyond, std::int64_t i[3]) {
  const int a = face / 2;
  const int b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;
  i[b] = q % e[b];
  i[c] = q / e[b];
  i[a] = face % 2 == 1 ? e[a] - 1 + beyond : -beyond;
}

// The number of nodes of face `face`.
SOLVENT_HD inline std::int64_t face_nodes(const std::int64_t e[3], int face) {
  const int a = face / 2;
  return e[a == 0 ? 1 : 0] * e[a == 2 ? 1 : 2];
}

}  // namespace solvent
