#pragma once
// Every p1 x p2 x p3 process grid of `ranks` ranks that fits a grid of `nodes` (each p at
// most its axis's nodes): what the distributed tests run for whatever mpirun started.
#include <solvent/grid/grid_blocks.hpp>

#include <vector>

namespace solvent::test {

inline std::vector<GridBlocks::Index3> all_splits(int ranks, GridBlocks::Index3 nodes) {
  std::vector<GridBlocks::Index3> out;
  for (int p1 = 1; p1 <= ranks; ++p1)
    for (int p2 = 1; p1 * p2 <= ranks; ++p2)
      if (ranks % (p1 * p2) == 0) {
        const int p3 = ranks / (p1 * p2);
        if (p1 <= nodes[0] && p2 <= nodes[1] && p3 <= nodes[2]) out.push_back({p1, p2, p3});
      }
  return out;
}

}  // namespace solvent::test
