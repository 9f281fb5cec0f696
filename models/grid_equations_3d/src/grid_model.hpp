#pragma once
// `grid-equations-3d`: seven-point grid equations c0 u - sum c_i u_i = F on an
// n1 x n2 x n3 grid of the unit cube (Sukhinov et al.; docs/models/grid-equations-3d.md), for
//   poisson:               -lap u = f                     (self-adjoint)
//   convection-diffusion:  -mu lap u + v . grad u = f     (non-self-adjoint)
// with a manufactured solution, on the whole box or on a basin-shaped water body whose
// outside nodes are inactive (c0 = 0), as in Sukhinov 2021's loops.
#include <solvent/solvent.hpp>
#include <solvent_family_seven_point_grid/grid.hpp>

#include <memory>
#include <string>
#include <vector>

namespace solvent::grid_equations_3d {

using seven_point_grid::Velocity;

class GridEquationsModel final : public Model, public LinearProblem {
 public:
  explicit GridEquationsModel(const PluginContext& ctx);

  LinearProblem* linear() override { return this; }
  std::shared_ptr<const Operator> matrix() const override;
  OperatorForm form() const override;
  Vector rhs() const override { return std::vector<double>(rhs_.begin(), rhs_.end()); }
  // Computed when asked (in parallel, as the errors are), not held: one grid-sized array
  // less to fault in and fill before the first iteration.
  std::optional<Vector> exact_solution() const override;
  std::optional<FieldLayout> layout() const override { return grid_.layout("u"); }
  std::vector<Observable> observables(const Vector& x) const override;
  Facts facts() const override;

  double cell_peclet() const { return cell_peclet_; }

 private:
  void assemble();
  double exact_at(const seven_point_grid::Node& node) const;

  bool matrix_free_;
  seven_point_grid::Grid grid_;
  seven_point_grid::TrigTable trig_;  // the manufactured solution's sines and cosines
  Velocity velocity_;
  double speed_, mu_, cell_peclet_ = 0.0;
  std::size_t active_nodes_ = 0;
  std::shared_ptr<Operator> op_;  // the stencil, also behind the matrix-free form
  HostArray<double> rhs_;
};

Schema grid_equations_schema();

}  // namespace solvent::grid_equations_3d
