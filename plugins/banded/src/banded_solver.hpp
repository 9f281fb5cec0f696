#pragma once
// Banded LU with partial pivoting on a BandedMatrix, which is already LAPACK's band
// storage: band_lu_factor (gbtrf's algorithm; zgbtrf for a complex band) factors in
// O(n kl (kl + ku)), the substitution of band_lu.hpp (gbtrs's arithmetic) solves in
// O(n (2 kl + ku)) — against the
// dense O(n^3). With reuse_factorization the factors made at setup serve every solve; the
// IMEX step matrix never changes.
#include <solvent/direct_solver.hpp>
#include <solvent/solvent.hpp>

namespace solvent::banded {

class BandedSolver : public DirectSolver {
 public:
  explicit BandedSolver(const PluginContext& ctx);
  std::vector<OperatorForm> forms() const override;

 protected:
  void load(const Operator& op) override;
  void factor() override;
  void substitute(std::span<const double> b, std::span<double> x) override;
  void substitute(std::span<const complex> b, std::span<complex> x) override;
  Facts more_facts() const override;

 private:
  template <class T>
  void factor_as(const BandedMatrix<T>& a);
  template <class T>
  void substitute_as(std::span<const T> b, std::span<T> x);

  PerScalar<std::vector<double>, std::vector<complex>> lu_;  // the factors, by scalar type
  PerScalar<std::vector<double>, std::vector<complex>> inverse_diagonal_;  // 1 / U(j, j)
  std::vector<int> ipiv_;
  std::size_t interchanges_ = 0;  // rows partial pivoting swapped
  ConditionReport condition_;
  std::vector<int> u_reach_;  // per row of U, the distance to its last non-zero
};

}  // namespace solvent::banded
