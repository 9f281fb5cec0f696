#pragma once
// `transport-3d`: u_t + v . grad u = mu lap u - k u + f on the n1 x n2 x n3 grid of the unit
// cube or of the basin inside it (docs/models/transport-3d.md), semi-discretised on the
// seven-point stencil as u_t + A u = g(t), A = -mu lap_h + v . grad_h + k (the assembly of
// grid-equations-3d, family seven_point_grid) and g the source with the Dirichlet values of
// time t. Two problems:
//   manufactured: u(x, t) = exp(-t) U(x), U grid-equations-3d's manufactured solution, so the
//                 error against the exact solution of every layer is an observable;
//   release:      a tracer released from a Gaussian source below the surface of a clean water
//                 body (u = 0 at t = 0 and on the boundary).
#include <solvent/solvent.hpp>
#include <solvent_family_seven_point_grid/evolution.hpp>
#include <solvent_family_seven_point_grid/grid.hpp>

#include <memory>
#include <string_view>

namespace solvent::transport_3d {

class TransportModel final : public Model, public seven_point_grid::Stencil7Evolution {
 public:
  explicit TransportModel(const PluginContext& ctx);

  void* extension(std::string_view name) override {
    return offer<seven_point_grid::Stencil7EvolutionFamily>(name, *this);
  }
  FieldLayout layout() const override { return grid_.layout("u"); }
  std::shared_ptr<const Operator> stencil() const override { return op_; }
  void initial_state(std::span<double> u) const override;
  void source(double t, std::span<double> g) const override;
  std::vector<Observable> observables(double t, std::span<const double> u) const override;
  Facts facts() const override;

 private:
  seven_point_grid::Grid grid_;
  bool manufactured_;
  seven_point_grid::Transport transport_;
  double cell_peclet_ = 0.0;
  std::size_t active_nodes_ = 0;
  std::shared_ptr<const Operator> op_;
  const Stencil7<double>* a_ = nullptr;  // the stencil in op_
  // manufactured: U at every node and S = A U + its Dirichlet values (g(t) = exp(-t) (S - U));
  // release: S is the constant source.
  HostArray<double> exact_, s_;
};

Schema transport_schema();

}  // namespace solvent::transport_3d
