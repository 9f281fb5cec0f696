#pragma once
// The grid of the seven-point models: n1 x n2 x n3 nodes of the unit cube, boundary nodes
// included, the whole box or a basin-shaped water body (Sukhinov et al.'s loops: nodes
// outside it are inactive, c0 = 0), split over the run's ranks into blocks; and the
// assembly of the seven-point form of -mu lap u + v . grad u + k u on its active nodes.
#include <solvent_family_seven_point_grid/fields.hpp>

#include <solvent/solvent.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/logger.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <concepts>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace solvent::seven_point_grid {

// The [model] keys of the grid: n1, n2, n3, domain, split.
inline Schema grid_schema() {
  return {
      ParamSpec::integer("n1", 33, "grid nodes along x, boundary nodes included").at_least(3),
      ParamSpec::integer("n2", 33, "grid nodes along y, boundary nodes included").at_least(3),
      ParamSpec::integer("n3", 33, "grid nodes along z, boundary nodes included").at_least(3),
      ParamSpec::choice("domain", "box", {"box", "basin"},
                        "box: every interior node active; basin: only the nodes inside the bowl "
                        "((x-1/2)/0.48)^2 + ((y-1/2)/0.48)^2 + ((z-1)/0.9)^2 < 1 (c0 = 0 outside)"),
      ParamSpec::string("split", "auto",
                        "over several MPI ranks, the p1xp2xp3 process grid the nodes are cut "
                        "into blocks by (e.g. \"1x2x2\"; p1 p2 p3 = ranks); \"auto\": the split "
                        "of axes 2 and 3 with the least face area between blocks (whole lines "
                        "of axis 1 on every rank, so solves repeat bit for bit over any number "
                        "of ranks)"),
  };
}

// A node's indices (i, j, k) on the whole grid.
using Node = std::array<std::size_t, 3>;

class Grid {
 public:
  // Reads the grid keys of `ctx.params`; over several ranks cuts the grid into blocks
  // (weighed by the ranks' measured speeds where the run measured them). `model` names the
  // model in messages.
  Grid(const PluginContext& ctx, const char* model)
      : comm_(ctx.comm), basin_(ctx.params.string("domain") == "basin") {
    const char* names[3] = {"n1", "n2", "n3"};
    for (int d = 0; d < 3; ++d) {
      const auto n = ctx.params.integer(names[d]);
      if (n < 3) throw ConfigError({fmt::format("{}: {} = {} is below 3", model, names[d], n)});
      n_[d] = static_cast<std::size_t>(n);
      h_[d] = 1.0 / static_cast<double>(n_[d] - 1);
    }
    if (comm_->size() == 1) return;
    const GridBlocks::Index3 nodes = {int(n_[0]), int(n_[1]), int(n_[2])};
    const std::string& split = ctx.params.string("split");
    // The automatic split cuts axes 2 and 3 only: every rank then holds whole lines of axis
    // 1, along which the Krylov solvers sum their dot products, and a solve repeats the
    // one-rank iterations bit for bit.
    // A split that does not fit is refused at its key's line.
    const auto who = ctx.params.located("split", fmt::format("[model] (model '{}')", model));
    const auto p = split == "auto"
                       ? GridBlocks::automatic_split({1, nodes[1], nodes[2]}, comm_->size())
                       : GridBlocks::parse_split(split, who);
    std::optional<GridBlocks> blocks;
    try {
      blocks.emplace(nodes, comm_->size(), p);
    } catch (const ConfigError& e) {
      throw e.prefixed(who);
    }
    if (!ctx.rank_speeds.empty()) {
      emptied_ = weigh_by_speed(*blocks, ctx.rank_speeds, ctx.rank_link, ctx.exchanges);
      for (const auto& e : emptied_) {
        if (!ctx.log) break;
        const std::string pace =
            e.slowest == e.rank
                ? fmt::format("at its measured speed of {:.3g} nodes/s", e.speed)
                : fmt::format(
                      "its slab of blocks across axis {} goes at the pace of rank {} "
                      "({:.3g} nodes/s measured), and at it",
                      e.axis + 1, e.slowest, ctx.rank_speeds[std::size_t(e.slowest)]);
        ctx.log->warn(
            "{}: rank {} is given no block: {} its share would be {:.3g} of the grid, which "
            "the other ranks do in {:.3g} s an iteration, less than the {:.3g} s its exchanges "
            "cost an iteration",
            model, e.rank, pace, e.share, e.others_s, e.exchanges_s);
      }
    }
    block_ = std::make_shared<const GridBlock>(GridBlock{*blocks, comm_->rank(), comm_});
  }

  std::size_t n(int d) const { return n_[d]; }
  const Point& h() const { return h_; }
  bool basin() const { return basin_; }
  const Communicator& comm() const { return *comm_; }
  // Over several ranks, this rank's block; null on one rank.
  const std::shared_ptr<const GridBlock>& block() const { return block_; }

  // The nodes this rank holds per axis, and the global index of its first node.
  std::array<std::size_t, 3> extent() const {
    if (!block_) return {n_[0], n_[1], n_[2]};
    const auto e = block_->extent();
    return {std::size_t(e[0]), std::size_t(e[1]), std::size_t(e[2])};
  }
  GridBlocks::Index3 offset() const {
    return block_ ? block_->offset() : GridBlocks::Index3{0, 0, 0};
  }
  std::size_t local_nodes() const {
    const auto e = extent();
    return e[0] * e[1] * e[2];
  }

  // Global node (i, j, k): inside the box and, for the basin, inside the bowl.
  bool active(std::size_t i, std::size_t j, std::size_t k) const {
    if (i == 0 || j == 0 || k == 0 || i + 1 == n_[0] || j + 1 == n_[1] || k + 1 == n_[2])
      return false;
    if (!basin_) return true;
    const double x = i * h_[0], y = j * h_[1], z = k * h_[2];
    const double a = (x - 0.5) / 0.48, b = (y - 0.5) / 0.48, c = (z - 1.0) / 0.9;
    return a * a + b * b + c * c < 1.0;
  }

  // The solution on the whole grid (this rank's block of it), boundary and inactive nodes
  // included, so the core writes it as VTK image data.
  FieldLayout layout(std::string component) const {
    FieldLayout l{{std::move(component)}, {}, block_};
    const char* names[3] = {"x", "y", "z"};
    const auto e = extent();
    const auto o = offset();
    for (int d = 0; d < 3; ++d) {
      Axis a{names[d], std::vector<double>(e[d])};
      for (std::size_t i = 0; i < e[d]; ++i) a.coordinates[i] = double(o[d] + i) * h_[d];
      l.axes.push_back(std::move(a));
    }
    return l;
  }

  // The point of global node `node`.
  Point point(const Node& node) const {
    return {node[0] * h_[0], node[1] * h_[1], node[2] * h_[2]};
  }

  // The largest and the l2 (h^3-weighted) error of x against scale * exact(m, node) over the
  // active nodes (c0 != 0) of every rank, m a node's index in this rank's block and node its
  // global index (scale: a separable solution's time factor, so no scaled copy of a
  // grid-sized field is made for every layer; exact is called from several threads at once,
  // so a model may compute its solution here instead of holding it).
  //
  // The block's z layers are shared over the threads, each summed alone and the layer sums
  // added in order: the same bits for any number of threads.
  template <std::invocable<std::size_t, const Node&> Exact>
  std::vector<Observable> errors(const Stencil7<double>& a, std::span<const double> x,
                                 Exact&& exact, double scale = 1.0) const {
    const auto e = extent();
    const auto o = offset();
    std::vector<double> layer_max(e[2], 0.0), layer_squares(e[2], 0.0);
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t kk = 0; kk < static_cast<std::ptrdiff_t>(e[2]); ++kk) {
      const auto k = static_cast<std::size_t>(kk);
      double emax = 0.0, e2 = 0.0;
      for (std::size_t j = 0; j < e[1]; ++j)
        for (std::size_t i = 0; i < e[0]; ++i) {
          const std::size_t m = a.index(i, j, k);
          if (a.c[0][m] == 0.0) continue;
          const Node node{o[0] + i, o[1] + j, o[2] + k};
          const double err = std::abs(x[m] - scale * exact(m, node));
          emax = std::max(emax, err);
          e2 += err * err;
        }
      layer_max[k] = emax;
      layer_squares[k] = e2;
    }
    double emax = 0.0, e2 = 0.0;
    for (std::size_t k = 0; k < e[2]; ++k) {
      emax = std::max(emax, layer_max[k]);
      e2 += layer_squares[k];
    }
    comm_->max(std::span<double>(&emax, 1));
    comm_->sum(std::span<double>(&e2, 1));
    return {{"error_max", emax}, {"error_l2", std::sqrt(e2 * h_[0] * h_[1] * h_[2])}};
  }
  // The same against a stored exact solution.
  std::vector<Observable> errors(const Stencil7<double>& a, std::span<const double> x,
                                 std::span<const double> exact, double scale = 1.0) const {
    return errors(
        a, x, [exact](std::size_t m, const Node&) { return exact[m]; }, scale);
  }

  // The facts of the grid: its size, the active nodes, the decomposition over ranks.
  Facts facts(std::size_t active_nodes) const {
    Facts f{{"grid", fmt::format("{}x{}x{}", n_[0], n_[1], n_[2])},
            {"active_nodes", std::to_string(active_nodes)}};
    if (block_) {
      const auto& b = block_->blocks;
      const auto& p = b.split;
      f.emplace_back("decomposition",
                     fmt::format("{}x{}x{} blocks over {} ranks", p[0], p[1], p[2], comm_->size()));
      for (int a = 0; a < 3; ++a)
        if (!b.cuts[a].empty()) {
          f.emplace_back(fmt::format("block_sizes_axis{}", a + 1),
                         fmt::format("{} (by measured speed)", fmt::join(b.sizes(a), " ")));
          std::vector<std::string> shares;
          for (int r = 0; r < b.ranks(); ++r) {
            const auto e = b.extent(r);
            shares.push_back(fmt::format(
                "{:.4g}", double(e[0]) * e[1] * e[2] / (double(n_[0]) * n_[1] * n_[2])));
          }
          f.emplace_back("share_each_rank", fmt::format("{}", fmt::join(shares, " ")));
          std::vector<int> none;
          for (const auto& e : emptied_) none.push_back(e.rank);
          f.emplace_back("ranks_without_block",
                         none.empty() ? "none" : fmt::format("{}", fmt::join(none, " ")));
        }
    }
    return f;
  }

 private:
  const Communicator* comm_;
  bool basin_;
  std::size_t n_[3];
  Point h_;
  std::shared_ptr<const GridBlock> block_;  // over several ranks, this rank's block
  std::vector<EmptiedRank> emptied_;        // the ranks balance by speed gave no block
};

// The coefficients of -mu lap u + v . grad u + k u.
struct Transport {
  double mu = 1.0;
  Velocity velocity = Velocity::None;
  double speed = 0.0;     // the largest speed of the velocity field
  double reaction = 0.0;  // k
};

// Assembles this rank's block of the seven-point form of -mu lap u + v . grad u + k u into
// `a` (of the grid's extent) and its right-hand side into `f`: f(m) = base(m, p, node) at
// every active node m at point p (global indices `node`), plus c u(q) for every coupling c
// to an inactive neighbour q (a Dirichlet node, whose value dirichlet(q) moves to the
// right-hand side). Returns the active nodes of every rank.
//
// Central differences with the velocity taken at the face midpoints: the convection part
// is then exactly skew-symmetric (A0 = -mu lap_h + k, A1 = the convection), and for a
// divergence-free v it approximates v . grad u to second order.
//
// Over several ranks a rank assembles its block alone, node (i, j, k) of the block being
// global node (o1 + i, o2 + j, o3 + k): the global system never exists on one rank, and a
// coupling across a block face is stored as any other (the solver's halo exchange brings
// the value it multiplies). base and dirichlet are called from several threads at once.
template <class Base, class Dirichlet>
std::size_t assemble(const Grid& g, const Transport& transport, Stencil7<double>& a,
                     std::span<double> f, Base&& base, Dirichlet&& dirichlet) {
  const auto e = g.extent();
  const auto o = g.offset();
  // Copies, not references: a coefficient stored through a double* could be one of their
  // doubles for all the compiler knows, which made it reload them and redo the divisions
  // below at every node.
  const Point h = g.h();
  const Transport t = transport;
  a.block = g.block();
  std::size_t active_nodes = 0;
  const auto layers = static_cast<std::ptrdiff_t>(e[2]);
#pragma omp parallel for schedule(dynamic) reduction(+ : active_nodes)
  for (std::ptrdiff_t kk = 0; kk < layers; ++kk)
    for (std::size_t jj = 0; jj < e[1]; ++jj)
      for (std::size_t ii = 0; ii < e[0]; ++ii) {
        const std::size_t i = o[0] + ii, j = o[1] + jj, k = o[2] + static_cast<std::size_t>(kk);
        if (!g.active(i, j, k)) continue;
        const std::size_t m = a.index(ii, jj, static_cast<std::size_t>(kk));
        const Point p{i * h[0], j * h[1], k * h[2]};
        ++active_nodes;
        double fm = base(m, p, std::array<std::size_t, 3>{i, j, k});
        double c0 = 0.0;
        for (int d = 0; d < 3; ++d) {
          const double diff = t.mu / (h[d] * h[d]);
          Point face_lo = p, face_hi = p, nb_lo = p, nb_hi = p;
          face_lo[d] -= 0.5 * h[d];
          face_hi[d] += 0.5 * h[d];
          nb_lo[d] -= h[d];
          nb_hi[d] += h[d];
          const double c_lo = diff + velocity(t.velocity, t.speed, face_lo)[d] / (2.0 * h[d]);
          const double c_hi = diff - velocity(t.velocity, t.speed, face_hi)[d] / (2.0 * h[d]);
          c0 += 2.0 * diff;
          std::size_t lo_idx[3] = {i, j, k}, hi_idx[3] = {i, j, k};
          --lo_idx[d];
          ++hi_idx[d];
          if (g.active(lo_idx[0], lo_idx[1], lo_idx[2]))
            a.c[2 * d + 1][m] = c_lo;
          else
            fm += c_lo * dirichlet(nb_lo);
          if (g.active(hi_idx[0], hi_idx[1], hi_idx[2]))
            a.c[2 * d + 2][m] = c_hi;
          else
            fm += c_hi * dirichlet(nb_hi);
        }
        // k = 0 (the steady models) adds +0, which leaves c0's bits as they were.
        a.c[0][m] = c0 + t.reaction;
        f[m] = fm;
      }
  double all_active = static_cast<double>(active_nodes);
  g.comm().sum(std::span<double>(&all_active, 1));
  return static_cast<std::size_t>(all_active);
}

}  // namespace solvent::seven_point_grid
