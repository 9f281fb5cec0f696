#include "src/grid_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace solvent::grid_equations_3d {

Schema grid_equations_schema() {
  return {
      ParamSpec::integer("n1", 33, "grid nodes along x, boundary nodes included").at_least(3),
      ParamSpec::integer("n2", 33, "grid nodes along y, boundary nodes included").at_least(3),
      ParamSpec::integer("n3", 33, "grid nodes along z, boundary nodes included").at_least(3),
      ParamSpec::choice("problem", "poisson", {"poisson", "convection-diffusion"},
                        "poisson: -lap u = f (self-adjoint); convection-diffusion: "
                        "-mu lap u + v . grad u = f, central differences (non-self-adjoint)"),
      ParamSpec::choice("velocity", "rotating", {"uniform", "shear", "rotating"},
                        "convection-diffusion velocity: uniform along (1,1,1); shear "
                        "(2z - 1, 0, 0); rotating about the vertical axis through the centre"),
      ParamSpec::real("peclet", 10.0, "Peclet number V L / mu (L = 1, V the largest speed)")
          .at_least(0.0),
      ParamSpec::real("mu", 1.0, "diffusion coefficient").above(0.0),
      ParamSpec::choice("domain", "box", {"box", "basin"},
                        "box: every interior node active; basin: only the nodes inside the bowl "
                        "((x-1/2)/0.48)^2 + ((y-1/2)/0.48)^2 + ((z-1)/0.9)^2 < 1 (c0 = 0 outside)"),
      ParamSpec::choice("operator", "stencil7", {"stencil7", "matrix-free"},
                        "stencil7: the seven coefficient arrays (MATM, Krylov, or any solver the "
                        "core converts them for); matrix-free: only the action y = A x, as a "
                        "model that never assembles would give it (Krylov solvers on the CPU)"),
      ParamSpec::string("split", "auto",
                        "over several MPI ranks, the p1xp2xp3 process grid the nodes are cut "
                        "into blocks by (e.g. \"1x2x2\"; p1 p2 p3 = ranks); \"auto\": the split "
                        "of axes 2 and 3 with the least face area between blocks (whole lines "
                        "of axis 1 on every rank, so solves repeat bit for bit over any number "
                        "of ranks)"),
  };
}

namespace {

// Sizes the blocks by the ranks' measured speeds along the most-split of axes 2 and 3 (the
// axes the sweeps and lines leave whole are not cut finer): a slab of blocks at one
// coordinate of that axis advances at its slowest rank's pace, so that rank's speed weighs
// the slab.
void balance(GridBlocks& blocks, const std::vector<double>& speeds) {
  const int axis = blocks.split[2] >= blocks.split[1] ? 2 : 1;
  std::vector<double> weights(static_cast<std::size_t>(blocks.split[axis]), 0.0);
  for (int r = 0; r < blocks.ranks(); ++r) {
    auto& w = weights[static_cast<std::size_t>(blocks.coordinates(r)[axis])];
    const double s = speeds[static_cast<std::size_t>(r)];
    w = w == 0.0 ? s : std::min(w, s);
  }
  blocks.weigh(axis, weights);
}

}  // namespace

GridEquationsModel::GridEquationsModel(const PluginContext& ctx)
    : comm_(*ctx.comm),
      basin_(ctx.params.string("domain") == "basin"),
      matrix_free_(ctx.params.string("operator") == "matrix-free"),
      mu_(ctx.params.real("mu")) {
  const char* names[3] = {"n1", "n2", "n3"};
  for (int d = 0; d < 3; ++d) {
    const auto n = ctx.params.integer(names[d]);
    if (n < 3)
      throw ConfigError({std::string("grid-equations-3d: ") + names[d] + " = " + std::to_string(n) +
                         " is below 3"});
    n_[d] = static_cast<std::size_t>(n);
    h_[d] = 1.0 / static_cast<double>(n_[d] - 1);
  }
  if (comm_.size() > 1) {
    if (matrix_free_)
      throw ConfigError({fmt::format("grid-equations-3d: operator = \"matrix-free\" runs on one "
                                     "rank, not {}: its action has no block to exchange",
                                     comm_.size())});
    const GridBlocks::Index3 nodes = {int(n_[0]), int(n_[1]), int(n_[2])};
    const std::string& split = ctx.params.string("split");
    // The automatic split cuts axes 2 and 3 only: every rank then holds whole lines of axis
    // 1, along which the Krylov solvers sum their dot products, and a solve repeats the
    // one-rank iterations bit for bit.
    const auto p = split == "auto" ? GridBlocks::automatic_split({1, nodes[1], nodes[2]},
                                                                 comm_.size())
                                   : GridBlocks::parse_split(split, "grid-equations-3d");
    GridBlocks blocks(nodes, comm_.size(), p);
    if (!ctx.rank_speeds.empty()) balance(blocks, ctx.rank_speeds);
    block_ = std::make_shared<const GridBlock>(GridBlock{blocks, comm_.rank(), &comm_});
  }
  const auto extent = block_extent();
  // Before assembly: the seven coefficient arrays, F and the exact solution built here, and
  // the solution the integrator makes, in doubles (n1 * n2 * n3 overflows no integer here).
  constexpr double bytes_per_node = 10 * 8;
  require_memory("model 'grid-equations-3d'",
                 double(extent[0]) * double(extent[1]) * double(extent[2]) * bytes_per_node,
                 fmt::format("a {}x{}x{} {} (7 stencil coefficients, right-hand side, exact "
                             "solution and solution: {:.0f} bytes a node; the linear solver's "
                             "work vectors are not counted)",
                             extent[0], extent[1], extent[2], block_ ? "block" : "grid",
                             bytes_per_node),
                 "reduce model.n1/n2/n3");
  const bool poisson = ctx.params.string("problem") == "poisson";
  const std::string& v = ctx.params.string("velocity");
  velocity_ = poisson          ? Velocity::None
              : v == "uniform" ? Velocity::Uniform
              : v == "shear"   ? Velocity::Shear
                               : Velocity::Rotating;
  if (poisson) mu_ = 1.0;
  speed_ = poisson ? 0.0 : ctx.params.real("peclet") * mu_;
  cell_peclet_ = speed_ * std::max({h_[0], h_[1], h_[2]}) / (2.0 * mu_);
  assemble();
  if (ctx.log) {
    ctx.log->info("grid-equations-3d: {} x {} x {} grid, {} active nodes, {}", n_[0], n_[1], n_[2],
                  active_nodes_, poisson ? "poisson" : "convection-diffusion (" + v + ")");
    if (block_)
      ctx.log->info("grid-equations-3d: blocks of a {}x{}x{} process grid over {} ranks",
                    block_->blocks.split[0], block_->blocks.split[1], block_->blocks.split[2],
                    comm_.size());
    if (cell_peclet_ > 1.0)
      ctx.log->warn(
          "grid-equations-3d: cell Peclet number {:.3g} > 1: central differences lose "
          "diagonal dominance of A and the discrete solution may oscillate",
          cell_peclet_);
  }
}

namespace {
// The stencil seen only through its action: what a solver gets from a model that never
// assembles (here the action happens to be the stored stencil's, so every form of this model
// solves the same system).
class StencilAction final : public MatrixFreeOperator<double> {
 public:
  explicit StencilAction(std::shared_ptr<const Operator> stencil) : stencil_(std::move(stencil)) {}
  std::size_t rows() const override { return rows_of(*stencil_); }
  void apply(std::span<const double> x, std::span<double> y) const override {
    solvent::apply(*stencil_, x, y);
  }

 private:
  std::shared_ptr<const Operator> stencil_;
};
}  // namespace

std::shared_ptr<const Operator> GridEquationsModel::matrix() const {
  if (!matrix_free_) return op_;
  return std::make_shared<const Operator>(
      MatrixFree<double>(std::make_shared<const StencilAction>(op_)));
}

OperatorForm GridEquationsModel::form() const {
  return {matrix_free_ ? OperatorKind::MatrixFree : OperatorKind::Stencil7, ScalarKind::Real};
}

bool GridEquationsModel::active(std::size_t i, std::size_t j, std::size_t k) const {
  if (i == 0 || j == 0 || k == 0 || i + 1 == n_[0] || j + 1 == n_[1] || k + 1 == n_[2])
    return false;
  if (!basin_) return true;
  const double x = i * h_[0], y = j * h_[1], z = k * h_[2];
  const double a = (x - 0.5) / 0.48, b = (y - 0.5) / 0.48, c = (z - 1.0) / 0.9;
  return a * a + b * b + c * c < 1.0;
}

// Central differences with the velocity taken at the face midpoints: the convection
// part is then exactly skew-symmetric (A0 = -mu lap_h, A1 = the convection), and for a
// divergence-free v it approximates v . grad u to second order.
//
// Over several ranks a rank assembles its block alone, node (i, j, k) of the block being
// global node (o1 + i, o2 + j, o3 + k): the global system never exists on one rank, and a
// coupling across a block face is stored as any other (the solver's halo exchange brings
// the value it multiplies).
void GridEquationsModel::assemble() {
  const auto e = block_extent();
  const auto o = block_ ? block_->offset() : GridBlocks::Index3{0, 0, 0};
  auto op = std::make_shared<Operator>(Stencil7<double>(e[0], e[1], e[2]));
  auto& a = std::get<Stencil7<double>>(*op);
  a.block = block_;
  const std::size_t n = a.size();
  rhs_ = HostArray<double>(n);
  exact_ = HostArray<double>(n);
  std::size_t active_nodes = 0;
  const auto layers = static_cast<std::ptrdiff_t>(e[2]);
#pragma omp parallel for schedule(dynamic) reduction(+ : active_nodes)
  for (std::ptrdiff_t kk = 0; kk < layers; ++kk)
    for (std::size_t jj = 0; jj < e[1]; ++jj)
      for (std::size_t ii = 0; ii < e[0]; ++ii) {
        const std::size_t i = o[0] + ii, j = o[1] + jj, k = o[2] + static_cast<std::size_t>(kk);
        if (!active(i, j, k)) continue;
        const std::size_t m = a.index(ii, jj, static_cast<std::size_t>(kk));
        const Point p{i * h_[0], j * h_[1], k * h_[2]};
        ++active_nodes;
        exact_[m] = exact_u(p);
        double f = source(velocity_, speed_, mu_, p);
        double c0 = 0.0;
        for (int d = 0; d < 3; ++d) {
          const double diff = mu_ / (h_[d] * h_[d]);
          Point face_lo = p, face_hi = p, nb_lo = p, nb_hi = p;
          face_lo[d] -= 0.5 * h_[d];
          face_hi[d] += 0.5 * h_[d];
          nb_lo[d] -= h_[d];
          nb_hi[d] += h_[d];
          const double c_lo = diff + velocity(velocity_, speed_, face_lo)[d] / (2.0 * h_[d]);
          const double c_hi = diff - velocity(velocity_, speed_, face_hi)[d] / (2.0 * h_[d]);
          c0 += 2.0 * diff;
          // An inactive neighbour is a Dirichlet node: its known value moves to F.
          std::size_t lo_idx[3] = {i, j, k}, hi_idx[3] = {i, j, k};
          --lo_idx[d];
          ++hi_idx[d];
          if (active(lo_idx[0], lo_idx[1], lo_idx[2]))
            a.c[2 * d + 1][m] = c_lo;
          else
            f += c_lo * exact_u(nb_lo);
          if (active(hi_idx[0], hi_idx[1], hi_idx[2]))
            a.c[2 * d + 2][m] = c_hi;
          else
            f += c_hi * exact_u(nb_hi);
        }
        a.c[0][m] = c0;
        rhs_[m] = f;
      }
  double all_active = static_cast<double>(active_nodes);
  comm_.sum(std::span<double>(&all_active, 1));
  active_nodes_ = static_cast<std::size_t>(all_active);
  op_ = op;
}

// The solution on the whole grid, boundary and inactive nodes included, so the core writes it
// as VTK image data.
std::optional<FieldLayout> GridEquationsModel::layout() const {
  FieldLayout l{{"u"}, {}, block_};
  const char* names[3] = {"x", "y", "z"};
  const auto e = block_extent();
  const auto o = block_ ? block_->offset() : GridBlocks::Index3{0, 0, 0};
  for (int d = 0; d < 3; ++d) {
    Axis a{names[d], std::vector<double>(e[d])};
    for (std::size_t i = 0; i < e[d]; ++i) a.coordinates[i] = double(o[d] + i) * h_[d];
    l.axes.push_back(std::move(a));
  }
  return l;
}

std::vector<Observable> GridEquationsModel::observables(const Vector& xv) const {
  const auto* x = std::get_if<std::vector<double>>(&xv);
  if (!x || x->size() != exact_.size()) return {};
  const auto& a = std::get<Stencil7<double>>(*op_);
  double emax = 0.0, e2 = 0.0;
  for (std::size_t m = 0; m < exact_.size(); ++m) {
    if (a.c[0][m] == 0.0) continue;
    const double e = std::abs((*x)[m] - exact_[m]);
    emax = std::max(emax, e);
    e2 += e * e;
  }
  comm_.max(std::span<double>(&emax, 1));
  comm_.sum(std::span<double>(&e2, 1));
  return {{"error_max", emax}, {"error_l2", std::sqrt(e2 * h_[0] * h_[1] * h_[2])}};
}

Facts GridEquationsModel::facts() const {
  Facts f{
      {"grid", std::to_string(n_[0]) + "x" + std::to_string(n_[1]) + "x" + std::to_string(n_[2])},
      {"active_nodes", std::to_string(active_nodes_)},
      {"cell_peclet", std::to_string(cell_peclet_)}};
  if (block_) {
    const auto& b = block_->blocks;
    const auto& p = b.split;
    f.emplace_back("decomposition", fmt::format("{}x{}x{} blocks over {} ranks", p[0], p[1], p[2],
                                                comm_.size()));
    for (int a = 0; a < 3; ++a)
      if (!b.cuts[a].empty())
        f.emplace_back(fmt::format("block_sizes_axis{}", a + 1),
                       fmt::format("{} (by measured speed)", fmt::join(b.sizes(a), " ")));
  }
  return f;
}

std::array<std::size_t, 3> GridEquationsModel::block_extent() const {
  if (!block_) return {n_[0], n_[1], n_[2]};
  const auto e = block_->extent();
  return {std::size_t(e[0]), std::size_t(e[1]), std::size_t(e[2])};
}

}  // namespace solvent::grid_equations_3d
