#pragma once
// LAPACK's getrf/getrs (through OpenBLAS): the reference dense direct solver. Our
// DenseMatrix is row-major, which LAPACK reads as the transpose; factoring that and
// solving with trans = 'T' avoids transposing a copy.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

namespace solvent::dense {

class LapackSolver : public DirectSolver {
 public:
  explicit LapackSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;

 protected:
  void load(const Operator& op) override;
  void factor() override;
  void substitute(std::span<const double> b, std::span<double> x) override;
  void substitute(std::span<const complex> b, std::span<complex> x) override;
  Facts more_facts() const override;

 private:
  template <class T>
  void factor_as();
  template <class T>
  void substitute_as(std::span<const T> b, std::span<T> x);

  PerScalar<std::vector<double>, std::vector<complex>> lu_;  // the factors, by scalar type
  std::vector<int> ipiv_;
  ConditionReport condition_;
};

}  // namespace solvent::dense
