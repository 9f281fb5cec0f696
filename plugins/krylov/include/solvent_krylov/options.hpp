#pragma once
// The parameters every Krylov plugin takes (and bicgstab-l's degree), read once from the
// resolved TOML section.
#include <solvent/parameters.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace solvent::krylov {

struct KrylovOptions {
  double tolerance = 1e-9;             // on ||b - A x|| / ||b||
  std::int64_t max_iterations = 1000;  // BiCGSTAB(l): outer cycles
  bool use_initial_guess = false;  // false: start from x = 0
  std::int64_t stagnation_window = 300;
  int degree = 8;  // BiCGSTAB(l) only
  // Called after each iteration with its relative residual (LinearSolver::report_iteration).
  std::function<void(std::int64_t, double)> on_iteration;
  // Called when a method's updated residual is replaced by the true one r0 - B y, after
  // iteration k, with both relative norms (the drift the replacement removed).
  std::function<void(std::int64_t k, double updated, double true_residual)> on_residual_replaced;
  // Called with a sentence when an unconverged solve returns something other than the
  // iterate its history calls best (the core logs it as a warning).
  std::function<void(const std::string&)> on_warning;
};

Schema krylov_schema();              // BiCGSTAB, TFQMR, CG
Schema krylov_schema_with_degree();  // BiCGSTAB(l): max_iterations counts cycles; adds l
KrylovOptions read_krylov_options(const Parameters& p);

}  // namespace solvent::krylov
