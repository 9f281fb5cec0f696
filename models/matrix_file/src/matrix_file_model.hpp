#pragma once
// Model `matrix-file`: A x = b for a matrix a user brings as a Matrix Market file.
// b is read from a file, is all ones, or is A times a known solution (which then becomes
// the model's exact solution, so the solve's error can be measured). Over several ranks
// rank 0 alone reads the files and sends each rank its rows of A, b and x, which it keeps
// as a distributed CSR matrix.
#include <solvent/solvent.hpp>
#include <solvent/sparse/row_distribution.hpp>

namespace solvent::matrix_file {

Schema schema();

class MatrixFileModel final : public Model, public LinearProblem {
 public:
  explicit MatrixFileModel(const PluginContext& ctx);

  LinearProblem* linear() override { return this; }
  std::shared_ptr<const Operator> matrix() const override { return matrix_; }
  Vector rhs() const override { return rhs_; }
  std::optional<Vector> exact_solution() const override { return exact_; }
  std::vector<Observable> observables(const Vector& x) const override;
  Facts facts() const override;

 private:
  void read_and_scatter(const Parameters& p);

  std::string path_;
  const Communicator* comm_;
  RowPartition partition_;
  std::shared_ptr<const Operator> matrix_;
  Vector rhs_;
  std::optional<Vector> exact_;
  double read_seconds_ = 0.0;
};

}  // namespace solvent::matrix_file
