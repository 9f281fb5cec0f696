#pragma once
// The vector work of MATM on the CPU, shared-memory parallel with OpenMP: the triangular
// sweeps run as a wavefront over the grid lines (j, k) with j + k constant, each line
// solved in order along i, so every thread count gives the sequential sweep's numbers.
#include <solvent_matm/iteration.hpp>
#include <solvent_matm/split_stencil.hpp>

#include <span>
#include <vector>

namespace solvent::matm {

class CpuBackend final : public MatmBackend {
 public:
  CpuBackend(const SplitStencil& a, std::span<const double> f, std::span<double> x, int threads);

  bool self_adjoint() const override { return view_.self_adjoint(); }
  double rhs_norm2() override;
  double update_and_residual(double tau) override;
  double omega_from_residual() override;
  Dots correction(double omega) override;

 private:
  SplitView view_;
  std::span<const double> f_;
  std::span<double> x_;
  int threads_;
  std::vector<double> r_, w_, y_, z0_, z1_;
};

// Number of threads OpenMP would use for `requested` (0 = all it has).
int cpu_threads(int requested);

}  // namespace solvent::matm
