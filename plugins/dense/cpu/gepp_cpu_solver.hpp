#pragma once
// Gaussian elimination with partial pivoting on the row-major augmented matrix [A | b],
// the textbook algorithm that De Luca et al. use as its CPU baseline: O(n^3) per solve, no
// blocking, no use of sparsity. With reuse_factorization the LU factors (same pivot
// order, same arithmetic) are kept from setup and each solve is two triangular sweeps.
// The arithmetic and the pivot rule (a NaN ranks above every number) are gepp-cuda's.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

namespace solvent::dense {

class GeppCpuSolver : public DirectSolver {
 public:
  explicit GeppCpuSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;

 protected:
  void load(const Operator& op) override;
  void factor() override;
  void substitute(std::span<const double> b, std::span<double> x) override;
  void substitute(std::span<const complex> b, std::span<complex> x) override;
  void factor_and_solve(std::span<const double> b, std::span<double> x) override;
  void factor_and_solve(std::span<const complex> b, std::span<complex> x) override;

 private:
  template <class T>
  void substitute_as(std::span<const T> b, std::span<T> x);
  template <class T>
  void factor_and_solve_as(std::span<const T> b, std::span<T> x);

  std::size_t n_ = 0;
  // LU factors of the real or complex matrix, and the row permutation.
  PerScalar<std::vector<double>, std::vector<complex>> lu_;  // the factors, by scalar type
  std::vector<std::size_t> pivot_;
};

}  // namespace solvent::dense
