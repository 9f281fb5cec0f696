#pragma once
// acme-jacobi: the (weighted) Jacobi iteration x <- x + w D^-1 (b - A x), real or complex.
// It declares CSR only — the core converts a dense, banded or stencil operator to CSR
// before setup — and forms A x with solvent::apply, so it holds no matrix-vector product of
// its own. It converges for strictly diagonally dominant matrices (and some others); when it
// does not, solve() says so and leaves its best iterate in x.
#include <solvent/solvent.hpp>

#include <spdlog/logger.h>

namespace acme {

class JacobiSolver : public solvent::LinearSolver {
 public:
  explicit JacobiSolver(const solvent::PluginContext& ctx);
  std::vector<solvent::OperatorForm> forms() const override;
  solvent::Facts facts() const override;

 protected:
  void setup_impl(std::shared_ptr<const solvent::Operator> op) override;
  solvent::SolveStats solve_impl(std::span<const double> b, std::span<double> x) override;
  solvent::SolveStats solve_impl(std::span<const solvent::complex> b,
                                 std::span<solvent::complex> x) override;

 private:
  template <class T>
  solvent::SolveStats iterate(std::span<const T> b, std::span<T> x, const std::vector<T>& diagonal);

  double tolerance_;
  std::int64_t max_iterations_;
  double weight_;
  std::shared_ptr<spdlog::logger> log_;
  std::shared_ptr<const solvent::Operator> op_;
  std::vector<double> diagonal_real_;
  std::vector<solvent::complex> diagonal_complex_;
  std::int64_t total_iterations_ = 0;
  std::int64_t solves_ = 0;
};

}  // namespace acme
