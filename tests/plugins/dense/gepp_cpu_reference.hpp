#pragma once
// The right-hand side the GPU tests of this package solve for, and gepp-cpu's solution of
// it: the reference every gepp-cuda configuration is compared with.
#include <solvent/testkit.hpp>

#include <cmath>
#include <memory>
#include <span>
#include <vector>

struct GeppCpuReference {
  std::vector<double> b, x;
};

inline GeppCpuReference gepp_cpu_reference(const std::shared_ptr<const solvent::Operator>& op,
                                           std::size_t n) {
  GeppCpuReference r{std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t i = 0; i < n; ++i) r.b[i] = std::sin(0.37 * double(i)) + 1.5;
  auto cpu = solvent::testkit::make_linear_solver("gepp-cpu");
  cpu->setup(op);
  cpu->solve(std::span<const double>(r.b), std::span<double>(r.x));
  return r;
}
