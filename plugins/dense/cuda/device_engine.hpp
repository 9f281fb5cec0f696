#pragma once
// What gepp-cuda asks of a device engine, whichever algorithm it runs: the elimination
// pipeline of De Luca et al. (DeviceGepp) or the blocked LU (BlockedLu). No CUDA types here,
// so the plugin's C++ code (logging, parameters) stays out of nvcc.
#include <cstddef>
#include <string>

namespace solvent::dense {

// Milliseconds of the last solve (setup's factorisation counts in factor_ms when the
// factorisation is reused), from CUDA events; host substitution from the host clock.
struct PhaseTimes {
  double upload_ms = 0.0;
  double factor_ms = 0.0;
  double substitute_ms = 0.0;
  double download_ms = 0.0;
};

class DeviceEngine {
 public:
  virtual ~DeviceEngine() = default;
  // a: row-major n x n; it must stay alive and unchanged until the next load. Without
  // reuse_factorization the matrix is kept on the device to refactor from at every solve.
  virtual void load(const double* a, std::size_t n) = 0;
  // With reuse_factorization: factors the loaded matrix. Throws solvent::SolverError on a
  // singular or non-finite pivot.
  virtual void factor() = 0;
  // With reuse_factorization: substitutes with the factors; without: factors the loaded
  // matrix afresh and solves. Throws solvent::SolverError on a singular or non-finite pivot.
  virtual void solve(const double* b, double* x) = 0;
  virtual const PhaseTimes& last_times() const = 0;
  virtual const std::string& device_name() const = 0;
  // Multiply-adds one factorisation performs.
  virtual double updates_per_factorization() const = 0;
};

}  // namespace solvent::dense
