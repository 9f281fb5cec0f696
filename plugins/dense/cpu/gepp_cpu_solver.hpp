#pragma once
// Gaussian elimination with partial pivoting on the row-major augmented matrix [A | b],
// the textbook algorithm that De Luca et al. use as its CPU baseline: O(n^3) per solve, no
// blocking, no use of sparsity. With reuse_factorization the LU factors (same pivot
// order, same arithmetic) are kept from setup and each solve is two triangular sweeps.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

namespace solvent::dense {

class GeppCpuSolver : public LinearSolver {
 public:
  explicit GeppCpuSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;
  Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const Operator> op) override;
  SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  SolveStats solve_impl(std::span<const complex> b, std::span<complex> x) override;

 private:
  template <class T>
  SolveStats solve_as(std::span<const T> b, std::span<T> x);

  bool reuse_;
  std::shared_ptr<const Operator> op_;
  // With reuse: LU factors of the real or complex matrix, and the row permutation.
  PerScalar<std::vector<double>, std::vector<complex>> lu_;  // the factors, by scalar type
  std::vector<std::size_t> pivot_;
  std::int64_t factorizations_ = 0;
};

}  // namespace solvent::dense
