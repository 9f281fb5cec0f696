#pragma once
// LAPACK's getrf/getrs (through OpenBLAS): the reference dense direct solver. Our
// DenseMatrix is row-major, which LAPACK reads as the transpose; factoring that and
// solving with trans = 'T' avoids transposing a copy.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

namespace solvent::dense {

class LapackSolver : public LinearSolver {
 public:
  explicit LapackSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override;

 private:
  template <class T>
  void factor(const DenseMatrix<T>& a, std::vector<T>& lu);
  template <class T>
  SolveStats solve_as(std::span<const T> b, std::span<T> x);

  bool reuse_;
  std::shared_ptr<const Operator> op_;
  PerScalar<std::vector<double>, std::vector<complex>> lu_;  // the factors, by scalar type
  std::vector<int> ipiv_;
  std::int64_t factorizations_ = 0;
};

}  // namespace solvent::dense
