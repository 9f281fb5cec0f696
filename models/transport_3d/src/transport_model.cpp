#include "src/transport_model.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

namespace solvent::transport_3d {

namespace sp = seven_point_grid;

Schema transport_schema() {
  Schema s = sp::grid_schema();
  const Schema own = {
      ParamSpec::choice("problem", "manufactured", {"manufactured", "release"},
                        "manufactured: u = exp(-t) U(x) with grid-equations-3d's U, f and the "
                        "boundary values made to fit (error observables); release: u = 0 at "
                        "t = 0 and on the boundary, a Gaussian source of width 0.05 at "
                        "(0.3, 0.5, 0.75)"),
      ParamSpec::choice("velocity", "rotating", {"none", "uniform", "shear", "rotating"},
                        "v: none; uniform along (1,1,1); shear (2z - 1, 0, 0); rotating about "
                        "the vertical axis through the centre"),
      ParamSpec::real("peclet", 10.0, "Peclet number V L / mu (L = 1, V the largest speed)")
          .at_least(0.0),
      ParamSpec::real("mu", 1.0, "diffusion coefficient").above(0.0),
      ParamSpec::real("reaction", 1.0, "k: the decay rate of the reaction term -k u")
          .at_least(0.0),
  };
  s.insert(s.end(), own.begin(), own.end());
  return s;
}

namespace {

// The released tracer's source: a Gaussian of width 0.05 below the surface of the basin.
double release(const sp::Point& p) {
  const double w = 0.05;
  const double dx = p[0] - 0.3, dy = p[1] - 0.5, dz = p[2] - 0.75;
  return std::exp(-(dx * dx + dy * dy + dz * dz) / (2.0 * w * w));
}

}  // namespace

TransportModel::TransportModel(const PluginContext& ctx)
    : grid_(ctx, "transport-3d"), manufactured_(ctx.params.string("problem") == "manufactured") {
  const auto e = grid_.extent();
  // The seven coefficient arrays of A, U and S built here; the integrator's copy of the
  // shifted stencil and its four state vectors (u, the previous layer, g, the right-hand side).
  constexpr double bytes_per_node = 20 * 8;
  require_memory("model 'transport-3d'", double(e[0]) * double(e[1]) * double(e[2]) * bytes_per_node,
                 fmt::format("a {}x{}x{} {} (A, its shifted copy, U, S and four state vectors: "
                             "{:.0f} bytes a node; the linear solver's work vectors are not "
                             "counted)",
                             e[0], e[1], e[2], grid_.block() ? "block" : "grid", bytes_per_node),
                 "reduce model.n1/n2/n3");
  const std::string& v = ctx.params.string("velocity");
  transport_.mu = ctx.params.real("mu");
  transport_.reaction = ctx.params.real("reaction");
  transport_.velocity = v == "none"      ? sp::Velocity::None
                        : v == "uniform" ? sp::Velocity::Uniform
                        : v == "shear"   ? sp::Velocity::Shear
                                         : sp::Velocity::Rotating;
  transport_.speed = transport_.velocity == sp::Velocity::None
                         ? 0.0
                         : ctx.params.real("peclet") * transport_.mu;
  const auto& h = grid_.h();
  cell_peclet_ = transport_.speed * std::max({h[0], h[1], h[2]}) / (2.0 * transport_.mu);

  auto op = std::make_shared<Operator>(Stencil7<double>(e[0], e[1], e[2]));
  auto& a = std::get<Stencil7<double>>(*op);
  op_ = op;
  a_ = &a;
  exact_ = HostArray<double>(a.size());
  s_ = HostArray<double>(a.size());
  const auto& t = transport_;
  if (manufactured_) {
    // S = (A U)(p) + the Dirichlet values U(q) times their couplings: A U as the PDE's
    // operator at the node, -mu lap U + v . grad U + k U, exactly.
    const sp::TrigTable trig({grid_.n(0), grid_.n(1), grid_.n(2)}, grid_.h());
    active_nodes_ = sp::assemble(
        grid_, t, a, s_,
        [&](std::size_t m, const sp::Point& p, const std::array<std::size_t, 3>& node) {
          const auto at = trig.at(node);
          exact_[m] = sp::exact_u(p, at);
          return sp::source(t.velocity, t.speed, t.mu, p, at) + t.reaction * exact_[m];
        },
        [](const sp::Point& q) { return sp::exact_u(q); });
  } else {
    active_nodes_ = sp::assemble(
        grid_, t, a, s_,
        [](std::size_t, const sp::Point& p, const std::array<std::size_t, 3>&) {
          return release(p);
        },
        [](const sp::Point&) { return 0.0; });
  }
  if (ctx.log) {
    ctx.log->info("transport-3d: {} x {} x {} grid, {} active nodes, {}, velocity {}",
                  grid_.n(0), grid_.n(1), grid_.n(2), active_nodes_,
                  manufactured_ ? "manufactured solution" : "released tracer", v);
    if (cell_peclet_ > 1.0)
      ctx.log->warn(
          "transport-3d: cell Peclet number {:.3g} > 1: central differences lose diagonal "
          "dominance of A and the discrete solution may oscillate",
          cell_peclet_);
  }
}

void TransportModel::initial_state(std::span<double> u) const {
  if (!manufactured_) {
    std::fill(u.begin(), u.end(), 0.0);
    return;
  }
  for (std::size_t m = 0; m < u.size(); ++m) u[m] = a_->c[0][m] == 0.0 ? 0.0 : exact_[m];
}

// manufactured: u_t + A u = exp(-t) (-U + A U) with the boundary values exp(-t) U folded in,
// that is exp(-t) (S - U).
void TransportModel::source(double t, std::span<double> g) const {
  const auto n = static_cast<std::ptrdiff_t>(g.size());
  if (!manufactured_) {
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t m = 0; m < n; ++m) g[std::size_t(m)] = s_[std::size_t(m)];
    return;
  }
  const double decay = std::exp(-t);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t m = 0; m < n; ++m)
    g[std::size_t(m)] = decay * (s_[std::size_t(m)] - exact_[std::size_t(m)]);
}

std::vector<Observable> TransportModel::observables(double t, std::span<const double> u) const {
  std::vector<Observable> obs;
  if (manufactured_) obs = grid_.errors(*a_, u, exact_, std::exp(-t));
  // The tracer's mass, h^3 sum u over the active nodes (its budget: the source in, the decay
  // and the flux through the boundary out).
  double mass = 0.0;
  for (std::size_t m = 0; m < u.size(); ++m)
    if (a_->c[0][m] != 0.0) mass += u[m];
  grid_.comm().sum(std::span<double>(&mass, 1));
  const auto& h = grid_.h();
  obs.push_back({"mass", mass * h[0] * h[1] * h[2]});
  return obs;
}

Facts TransportModel::facts() const {
  Facts f = grid_.facts(active_nodes_);
  f.insert(f.begin() + 2, {"cell_peclet", std::to_string(cell_peclet_)});
  return f;
}

}  // namespace solvent::transport_3d
