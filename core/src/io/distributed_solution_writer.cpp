#include "io/distributed_solution_writer.hpp"

#include "io/output_manifest.hpp"
#include "io/vtk_writer.hpp"
#include "io/vtkhdf_writer.hpp"
#include "ranks/communicator_world.hpp"

#include <solvent/errors.hpp>
#include <solvent/grid/grid_blocks.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <system_error>
#include <vector>

namespace solvent {

namespace fs = std::filesystem;

bool distributed_grid_layout(const FieldLayout& layout) {
  return layout.block && layout.block->blocks.ranks() > 1;
}

DistributedSolutionWriter::DistributedSolutionWriter(fs::path dir, FieldLayout layout,
                                                     const Parameters& output, Observer& next,
                                                     spdlog::logger& log)
    : dir_(std::move(dir)),
      layout_(std::move(layout)),
      write_solution_(output.boolean("solution")),
      fields_(vtk_fields_written(output)),
      vtk_(vtk_format(output)),
      next_(next),
      log_(log) {}

void DistributedSolutionWriter::on_solution(const Vector& x, const SolveStats& stats,
                                            std::span<const Observable> observables) {
  // Every rank gets here with the same stats (the solver's tests are over all ranks).
  // The same on every rank (one configuration): all take part in the writing or none.
  if (fields_ && (write_solution_ || !stats.converged))
    write(std::get_if<std::vector<double>>(&x),
          stats.converged ? "solution" : "unconverged_iterate");
  next_.on_solution(x, stats, observables);
}

namespace {

using Index3 = GridBlocks::Index3;

// The rank's piece: its block's values and, on each upper side with a neighbour, the
// neighbour's first layer, so that the piece ends on the node where the next one begins.
// A face exchange gives the layers across faces; the nodes across an edge or the corner
// belong to a block that touches this one only there, and come in three more transfers,
// each rank passing on across its lower x or y face what its own exchange brought it.
// Every rank calls this, with the same number of components.
std::vector<double> piece_values(const GridBlock& block, std::span<const double> x,
                                 std::size_t components, Index3& piece_extent) {
  HaloExchange<double> halo(block, HaloExchange<double>::Layout::Block);
  const auto& nb = halo.neighbours();
  const std::size_t e0 = std::size_t(halo.extent()[0]), e1 = std::size_t(halo.extent()[1]),
                    e2 = std::size_t(halo.extent()[2]);
  const bool down[3] = {nb[0] >= 0, nb[2] >= 0, nb[4] >= 0};
  const bool up[3] = {nb[1] >= 0, nb[3] >= 0, nb[5] >= 0};
  const std::size_t E0 = e0 + up[0], E1 = e1 + up[1], E2 = e2 + up[2];
  piece_extent = {int(E0), int(E1), int(E2)};
  const std::size_t points = e0 * e1 * e2, piece_points = E0 * E1 * E2;
  std::vector<double> piece(piece_points * components);
  auto send = halo.send_buffer();
  const std::size_t to_x = halo.face_offset(0), to_y = halo.face_offset(2);
  for (std::size_t c = 0; c < components; ++c) {
    const auto u = x.subspan(c * points, points);
    double* p = piece.data() + c * piece_points;
    auto at = [&](std::size_t i, std::size_t j, std::size_t k) { return i + E0 * (j + E1 * k); };
    for (std::size_t k = 0; k < e2; ++k)
      for (std::size_t j = 0; j < e1; ++j)
        for (std::size_t i = 0; i < e0; ++i) p[at(i, j, k)] = u[i + e0 * (j + e1 * k)];

    // The faces: ghost(f) over the face's two other axes, the lower one fastest.
    halo.pack(u);
    halo.transfer();
    const auto keep = [&](int f) {
      const auto g = halo.ghost(f);
      return std::vector<double>(g.begin(), g.end());
    };
    const auto gx = keep(1), gy = keep(3), gz = keep(5);
    if (up[0])
      for (std::size_t k = 0; k < e2; ++k)
        for (std::size_t j = 0; j < e1; ++j) p[at(e0, j, k)] = gx[j + e1 * k];
    if (up[1])
      for (std::size_t k = 0; k < e2; ++k)
        for (std::size_t i = 0; i < e0; ++i) p[at(i, e1, k)] = gy[i + e0 * k];
    if (up[2])
      for (std::size_t j = 0; j < e1; ++j)
        for (std::size_t i = 0; i < e0; ++i) p[at(i, j, e2)] = gz[i + e0 * j];

    // The x-y edge (from the +x neighbour, which has it in its +y layer, i = 0) and the
    // y-z edge (from the +y neighbour, which has it in its +z layer, j = 0).
    std::fill(send.begin(), send.end(), 0.0);
    if (down[0] && up[1])
      for (std::size_t k = 0; k < e2; ++k) send[to_x + e1 * k] = gy[e0 * k];
    if (down[1] && up[2])
      for (std::size_t i = 0; i < e0; ++i) send[to_y + i] = gz[i];
    halo.transfer();
    std::vector<double> yz_edge(e0);
    if (up[0] && up[1])
      for (std::size_t k = 0; k < e2; ++k) p[at(e0, e1, k)] = halo.ghost(1)[e1 * k];
    if (up[1] && up[2])
      for (std::size_t i = 0; i < e0; ++i) p[at(i, e1, e2)] = yz_edge[i] = halo.ghost(3)[i];

    // The x-z edge (from the +x neighbour's +z layer, i = 0).
    std::fill(send.begin(), send.end(), 0.0);
    if (down[0] && up[2])
      for (std::size_t j = 0; j < e1; ++j) send[to_x + j] = gz[e0 * j];
    halo.transfer();
    if (up[0] && up[2])
      for (std::size_t j = 0; j < e1; ++j) p[at(e0, j, e2)] = halo.ghost(1)[j];

    // The corner (the +x neighbour's y-z edge, i = 0).
    std::fill(send.begin(), send.end(), 0.0);
    if (down[0] && up[1] && up[2]) send[to_x] = yz_edge[0];
    halo.transfer();
    if (up[0] && up[1] && up[2]) p[at(e0, e1, e2)] = halo.ghost(1)[0];
  }
  return piece;
}

fs::path piece_name(const std::string& stem, int rank) {
  return fs::path(stem + "_pieces") / fmt::format("piece_{:04d}.vti", rank);
}

}  // namespace

// Long because it is three collective steps every rank takes in the same order (the whole
// grid's geometry, the pieces, the .pvti); kept in one place, their agreement reads whole.
void DistributedSolutionWriter::write(const std::vector<double>* x, const std::string& stem) {
  const GridBlock& block = *layout_.block;
  const Communicator& comm = *block.comm;
  const bool root = comm.rank() == 0;
  const Index3 offset = block.offset(), extent = block.extent(), nodes = block.blocks.nodes;
  const char* what = stem == "solution" ? "solution" : "unconverged iterate";

  // The whole grid's origin and spacing, from its first and last coordinate per axis as the
  // one-rank writer takes them (the ranks holding those nodes give them), and whether this
  // rank can take part: a real field of the layout's size on three axes of its block.
  constexpr double none = -std::numeric_limits<double>::infinity();
  std::array<double, 7> ends;
  ends.fill(none);
  bool usable = x && layout_.axes.size() == 3 && x->size() == layout_.size();
  for (std::size_t d = 0; usable && d < 3; ++d) {
    const auto& c = layout_.axes[d].coordinates;
    usable = c.size() == std::size_t(extent[d]);
    if (!usable || c.empty()) continue;
    if (offset[d] == 0) ends[2 * d] = c.front();
    if (offset[d] + extent[d] == nodes[d]) ends[2 * d + 1] = c.back();
  }
  ends[6] = usable ? 0.0 : 1.0;
  comm.max(ends);
  VtkImage image;
  for (std::size_t d = 0; d < 3; ++d) {
    image.origin[d] = ends[2 * d];
    if (nodes[d] > 1) image.spacing[d] = (ends[2 * d + 1] - ends[2 * d]) / double(nodes[d] - 1);
  }
  double uneven = ends[6];
  if (uneven == 0.0)
    for (std::size_t d = 0; d < 3; ++d)
      if (!(image.spacing[d] > 0.0) ||
          !vtk_uniform_coordinates(layout_.axes[d].coordinates, image.origin[d], image.spacing[d],
                                   offset[d]))
        uneven = 1.0;
  comm.max(std::span<double>(&uneven, 1));
  if (uneven != 0.0) {
    if (root)
      log_.warn(
          "the {} is held by {} ranks and is not written: over several ranks it is "
          "written as {}.{}, of real values on evenly spaced axes, and this one is not",
          what, comm.size(), stem, vtk_.hdf ? "vtkhdf" : "pvti");
    return;
  }

  if (vtk_.hdf) {
    // One file, each rank writing its own block into it: no pieces, no halo.
    const fs::path file = dir_ / (stem + ".vtkhdf");
    agree_across_ranks(comm, [&] {
      write_vtkhdf_image(file, image, {nodes[0], nodes[1], nodes[2]},
                         {{offset[0], offset[1], offset[2]}, {extent[0], extent[1], extent[2]}},
                         layout_.components, *x, vtk_.float32, std::nullopt, comm);
      return std::string();
    });
    if (root)
      log_.info("the {} over {} ranks is in {}, written by every rank", what, comm.size(),
                file.string());
    return;
  }
  Index3 piece_extent{};
  const auto values = piece_values(block, *x, layout_.components.size(), piece_extent);
  auto piece_of = [&](int rank, Index3 e) {
    VtkPiece p;
    const Index3 o = block.blocks.offset(rank);
    for (std::size_t d = 0; d < 3; ++d) {
      p.first[d] = o[d];
      p.last[d] = std::int64_t(o[d]) + e[d] - 1;
    }
    p.source = piece_name(stem, rank).generic_string();
    return p;
  };
  // Every rank writes its piece; a piece that cannot be written fails the run on every
  // rank, reported once by rank 0 (naming the rank).
  agree_across_ranks(comm, [&] {
    // A rank given no block (weigh_by_speed) has no piece.
    if (block.blocks.empty(comm.rank())) return std::string();
    const fs::path folder = dir_ / (stem + "_pieces");
    std::error_code ec;
    fs::create_directories(folder, ec);  // by every rank at once: one of them makes it
    if (!fs::is_directory(folder))
      throw Error(fmt::format("cannot create the folder {}: {}", folder.string(),
                              ec ? ec.message() : "it is not a directory"));
    write_vtk_image_piece(dir_ / piece_name(stem, comm.rank()), image,
                          piece_of(comm.rank(), piece_extent), layout_.components, values, vtk_);
    return std::string();
  });
  // Rank 0 lists the pieces and writes the .pvti; the others wait for it, so that a rank
  // that then fails (an unconverged solve ends the run from every rank) cannot end the run
  // before the dataset is whole.
  agree_across_ranks(comm, [&] {
    if (!root) return std::string();
    std::vector<VtkPiece> pieces;
    for (int r = 0; r < comm.size(); ++r) {
      if (block.blocks.empty(r)) continue;
      Index3 e = block.blocks.extent(r);
      const auto n = block.blocks.neighbours(r);
      for (std::size_t d = 0; d < 3; ++d) e[d] += n[2 * d + 1] >= 0;
      pieces.push_back(piece_of(r, e));
      // Written by rank r: listed here, so that --overwrite removes it.
      note_written(dir_ / pieces.back().source);
    }
    const fs::path pvti = dir_ / (stem + ".pvti");
    write_vtk_image_pieces(pvti, image, {nodes[0], nodes[1], nodes[2]}, layout_.components, pieces,
                           vtk_);
    log_.info("the {} over {} ranks is in {} ({} pieces in {}_pieces/)", what, comm.size(),
              pvti.string(), pieces.size(), stem);
    return std::string();
  });
}

}  // namespace solvent
