#include "src/grid_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace solvent::grid_equations_3d {

Schema grid_equations_schema() {
  Schema s = seven_point_grid::grid_schema();
  const Schema own = {
      ParamSpec::choice("problem", "poisson", {"poisson", "convection-diffusion"},
                        "poisson: -lap u = f (self-adjoint); convection-diffusion: "
                        "-mu lap u + v . grad u = f, central differences (non-self-adjoint)"),
      ParamSpec::choice("velocity", "rotating", {"uniform", "shear", "rotating"},
                        "convection-diffusion velocity: uniform along (1,1,1); shear "
                        "(2z - 1, 0, 0); rotating about the vertical axis through the centre"),
      ParamSpec::real("peclet", 10.0, "Peclet number V L / mu (L = 1, V the largest speed)")
          .at_least(0.0),
      ParamSpec::real("mu", 1.0, "diffusion coefficient").above(0.0),
      ParamSpec::choice("operator", "stencil7", {"stencil7", "matrix-free"},
                        "stencil7: the seven coefficient arrays (MATM, Krylov, or any solver the "
                        "core converts them for); matrix-free: only the action y = A x, as a "
                        "model that never assembles would give it (Krylov solvers on the CPU)"),
  };
  s.insert(s.end(), own.begin(), own.end());
  return s;
}

namespace {

// Whether the model hands over only the action; refused over several ranks before the grid
// is cut into blocks.
bool matrix_free(const PluginContext& ctx) {
  const bool free = ctx.params.string("operator") == "matrix-free";
  if (free && ctx.comm->size() > 1)
    throw ConfigError(
        {fmt::format("grid-equations-3d: operator = \"matrix-free\" runs on one "
                     "rank, not {}: its action has no block to exchange",
                     ctx.comm->size())});
  return free;
}

}  // namespace

GridEquationsModel::GridEquationsModel(const PluginContext& ctx)
    : matrix_free_(matrix_free(ctx)),
      grid_(ctx, "grid-equations-3d"),
      trig_({grid_.n(0), grid_.n(1), grid_.n(2)}, grid_.h()),
      mu_(ctx.params.real("mu")) {
  const auto extent = grid_.extent();
  // Before assembly: the seven coefficient arrays and F built here, and the solution the
  // integrator makes, in doubles (n1 * n2 * n3 overflows no integer here).
  constexpr double bytes_per_node = 9 * 8;
  require_memory("model 'grid-equations-3d'",
                 double(extent[0]) * double(extent[1]) * double(extent[2]) * bytes_per_node,
                 fmt::format("a {}x{}x{} {} (7 stencil coefficients, right-hand side and "
                             "solution: {:.0f} bytes a node; the linear solver's work vectors "
                             "are not counted)",
                             extent[0], extent[1], extent[2], grid_.block() ? "block" : "grid",
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
  const auto& h = grid_.h();
  cell_peclet_ = speed_ * std::max({h[0], h[1], h[2]}) / (2.0 * mu_);
  assemble();
  if (ctx.log) {
    ctx.log->info("grid-equations-3d: {} x {} x {} grid, {} active nodes, {}", grid_.n(0),
                  grid_.n(1), grid_.n(2), active_nodes_,
                  poisson ? "poisson" : "convection-diffusion (" + v + ")");
    if (const auto& b = grid_.block())
      ctx.log->info("grid-equations-3d: blocks of a {}x{}x{} process grid over {} ranks",
                    b->blocks.split[0], b->blocks.split[1], b->blocks.split[2],
                    grid_.comm().size());
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

// The right-hand side of the manufactured solution; its values on the boundary and the shore
// are the Dirichlet values.
void GridEquationsModel::assemble() {
  const auto e = grid_.extent();
  auto op = std::make_shared<Operator>(Stencil7<double>(e[0], e[1], e[2]));
  auto& a = std::get<Stencil7<double>>(*op);
  rhs_ = HostArray<double>(a.size());
  const seven_point_grid::Transport t{mu_, velocity_, speed_, 0.0};
  active_nodes_ = seven_point_grid::assemble(
      grid_, t, a, std::span<double>(rhs_.data(), rhs_.size()),
      [&](std::size_t, const seven_point_grid::Point& p, const seven_point_grid::Node& node) {
        return seven_point_grid::source(velocity_, speed_, mu_, p, trig_.at(node));
      },
      [](const seven_point_grid::Point& q) { return seven_point_grid::exact_u(q); });
  op_ = op;
}

double GridEquationsModel::exact_at(const seven_point_grid::Node& node) const {
  return seven_point_grid::exact_u(grid_.point(node), trig_.at(node));
}

std::optional<Vector> GridEquationsModel::exact_solution() const {
  const auto e = grid_.extent();
  const auto o = grid_.offset();
  std::vector<double> u(grid_.local_nodes());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t kk = 0; kk < static_cast<std::ptrdiff_t>(e[2]); ++kk) {
    const auto k = o[2] + static_cast<std::size_t>(kk);
    std::size_t m = static_cast<std::size_t>(kk) * e[0] * e[1];
    for (std::size_t j = o[1]; j < o[1] + e[1]; ++j)
      for (std::size_t i = o[0]; i < o[0] + e[0]; ++i, ++m)
        if (grid_.active(i, j, k)) u[m] = exact_at({i, j, k});
  }
  return u;
}

std::vector<Observable> GridEquationsModel::observables(const Vector& xv) const {
  const auto* x = std::get_if<std::vector<double>>(&xv);
  if (!x || x->size() != rhs_.size()) return {};
  return grid_.errors(
      std::get<Stencil7<double>>(*op_), *x,
      [this](std::size_t, const seven_point_grid::Node& node) { return exact_at(node); });
}

Facts GridEquationsModel::facts() const {
  Facts f = grid_.facts(active_nodes_);
  f.insert(f.begin() + 2, {"cell_peclet", std::to_string(cell_peclet_)});
  return f;
}

}  // namespace solvent::grid_equations_3d
