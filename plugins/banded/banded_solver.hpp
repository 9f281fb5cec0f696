#pragma once
// LAPACK's banded LU with partial pivoting (gbtrf/gbtrs, through OpenBLAS) on a
// BandedMatrix, which is already LAPACK's band storage: O(n kl (kl + ku)) to factor and
// O(n (2 kl + ku)) per solve instead of the dense O(n^3). With reuse_factorization the
// factors made at setup serve every solve; the IMEX step matrix never changes.
#include <solvent/solvent.hpp>

namespace solvent::banded {

class BandedSolver : public LinearSolver {
 public:
  explicit BandedSolver(const PluginContext& ctx);
  bool accepts(OperatorKind kind, ScalarKind scalar) const override;
  void setup(std::shared_ptr<const Operator> op) override;
  SolveStats solve(std::span<const double> b, std::span<double> x) override;
  SolveStats solve(std::span<const complex> b, std::span<complex> x) override;
  Facts facts() const override;

 private:
  template <class T>
  void factor(const BandedMatrix<T>& a, std::vector<T>& lu);
  template <class T>
  SolveStats solve_impl(std::span<const T> b, std::span<T> x);

  bool reuse_;
  std::shared_ptr<const Operator> op_;
  std::vector<double> lu_real_;
  std::vector<complex> lu_complex_;
  std::vector<int> ipiv_;
  std::int64_t factorizations_ = 0;
};

}  // namespace solvent::banded
