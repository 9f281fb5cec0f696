#pragma once
// Model `helmholtz`: a tetrahedral mesh (built-in or gmsh), the boundary groups named in
// the configuration, and the assembled complex symmetric system, as a LinearProblem. Over
// several ranks every rank holds the mesh and assembles its own nodes' rows alone (a
// distributed CSR matrix).
#include <solvent_helmholtz/p1_assembly.hpp>
#include <solvent_helmholtz/tet_mesh.hpp>

#include <solvent/solvent.hpp>
#include <solvent/sparse/row_distribution.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace solvent::helmholtz {

Schema schema();

class HelmholtzModel final : public Model, public LinearProblem {
 public:
  explicit HelmholtzModel(const PluginContext& ctx);

  LinearProblem* linear() override { return this; }
  std::shared_ptr<const Operator> matrix() const override;
  // Known before the (lazy) assembly, so `solvent validate` need not assemble.
  OperatorForm form() const override { return {OperatorKind::Csr, ScalarKind::Complex}; }
  Vector rhs() const override;
  std::optional<Vector> exact_solution() const override;
  std::vector<Observable> observables(const Vector& x) const override;
  Facts facts() const override;

 private:
  TetMesh load_mesh(const Parameters& p) const;
  void select_groups(const Parameters& p);
  std::string group_list() const;
  complex reference(const Point& x) const;
  // The mesh is made (and the boundary lists checked against it) at construction, the
  // system on first use.
  void assemble() const;

  std::shared_ptr<spdlog::logger> log_;
  const Communicator* comm_;
  std::string mesh_name_;
  TetMesh mesh_;
  BoundaryConditions bc_;
  double k_ = 0.0;
  double h_max_ = 0.0;
  double mesh_seconds_ = 0.0;
  int reference_axis_ = -1;         // 0, 1, 2 for plane-wave-x, -y, -z; -1 without a reference
  double reference_origin_ = 0;     // the inlet plane: the smallest coordinate along that axis
  std::optional<MeshPoint> probe_;  // model.probe, where it is given
  mutable std::shared_ptr<const Operator> matrix_;
  mutable std::vector<complex> rhs_;
  mutable double assembly_seconds_ = 0.0;
  // Over several ranks: the nodes' ranks (Scotch's), each rank assembling its own rows.
  mutable RowPartition partition_;
};

}  // namespace solvent::helmholtz
