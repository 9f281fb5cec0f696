#include "src/snapshot_output.hpp"

#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace solvent::stencil3d {

void write_fields(const SimulationState& s, solvent::FieldOutput& out) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  solvent::GridBlockOutput grid;
  grid.nodes = {g.nx, g.ny, g.nz};
  grid.spacing = {s.p.h, s.p.h, s.p.h};
  for (std::size_t d = 0; d < 3; ++d) {
    grid.first[d] = s.block.offset[d];
    grid.count[d] = s.block.extent[d];
  }
  // The block and the layer it shares with each upper neighbour, all inside the window
  // (at least one node deep): copied out of it, with the owner as n and as sprout.
  const std::size_t points = grid.held_points();
  std::vector<double> values(4 * points);
  double* n = values.data();
  double* f = n + points;
  double* c = f + points;
  double* sprout = c + points;
  std::size_t at = 0;
  for (std::int64_t k = 0; k < grid.held(2); ++k)
    for (std::int64_t j = 0; j < grid.held(1); ++j)
      for (std::int64_t i = 0; i < grid.held(0); ++i, ++at) {
        const auto w = static_cast<std::size_t>(
            s.window.index(static_cast<std::int32_t>(grid.first[0] + i),
                           static_cast<std::int32_t>(grid.first[1] + j),
                           static_cast<std::int32_t>(grid.first[2] + k)));
        // The hybrid mode's n is the cell occupancy (1 on vessel nodes); the continuous
        // mode's the field itself.
        n[at] = s.n.empty() ? (s.owner[w] >= 0 ? 1.0 : 0.0) : s.n[w];
        f[at] = s.f[w];
        c[at] = s.c[w];
        sprout[at] = s.owner[w];
      }
  out.write_grid("fields", s.step, static_cast<double>(s.step) * s.dt, grid,
                 {"n", "f", "c", "sprout"}, values);
}

void write_network(const SimulationState& s, const solvent::Communicator& comm,
                   solvent::FieldOutput& out) {
  const auto g = solvent::angiogenesis_3d::grid_of(s.p);
  const auto nodes = std::min(s.counters.vessel_nodes, s.vessel_capacity());
  const auto segments = std::min(s.counters.segments, s.segment_capacity());
  std::unordered_map<std::int32_t, std::int64_t> point_of;
  point_of.reserve(static_cast<std::size_t>(nodes));
  for (std::int32_t q = 0; q < nodes; ++q) point_of.emplace(s.vessel[q], q);

  solvent::LinesOutput lines;
  lines.points.reserve(3 * static_cast<std::size_t>(nodes));
  for (std::int32_t q = 0; q < nodes; ++q) {
    std::int32_t i, j, k;
    g.coordinates(s.vessel[q], i, j, k);
    lines.points.insert(lines.points.end(), {i * s.p.h, j * s.p.h, k * s.p.h});
  }
  std::vector<double> tip(static_cast<std::size_t>(nodes), 0.0);
  for (std::int32_t t = 0; t < s.counters.tips; ++t)
    if (s.active[t]) tip[static_cast<std::size_t>(point_of.at(s.node[t]))] = 1.0;
  // A segment's sprout is the owner of its second node. Each rank holds the owners of its
  // window only, so the owner of each vessel node comes from the rank whose block holds it.
  std::vector<double> owner(static_cast<std::size_t>(nodes), -2.0);
  for (std::int32_t q = 0; q < nodes; ++q) {
    std::int32_t i, j, k;
    g.coordinates(s.vessel[q], i, j, k);
    if (s.block.contains(i, j, k)) owner[static_cast<std::size_t>(q)] = s.owner[s.window.index(i, j, k)];
  }
  comm.max(owner);
  std::vector<double> sprout(static_cast<std::size_t>(segments));
  lines.ends.reserve(2 * static_cast<std::size_t>(segments));
  for (std::int32_t e = 0; e < segments; ++e) {
    const auto second = point_of.at(s.segments[2 * e + 1]);
    lines.ends.push_back(point_of.at(s.segments[2 * e]));
    lines.ends.push_back(second);
    sprout[static_cast<std::size_t>(e)] = owner[static_cast<std::size_t>(second)];
  }
  lines.point_data.emplace_back("tip", std::move(tip));
  lines.segment_data.emplace_back("sprout", std::move(sprout));
  out.write_lines("network", s.step, static_cast<double>(s.step) * s.dt, lines);
}

}  // namespace solvent::stencil3d
