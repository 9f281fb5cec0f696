#pragma once
// The device side of the cusolver plugin: cuSOLVER's getrf / getrs on a resident copy of
// the matrix. No CUDA types here, so the plugin's C++ code stays out of nvcc.
#include <cstddef>
#include <memory>
#include <string>

namespace solvent::dense {

struct LuTimes {
  double factor_ms = 0.0;  // getrf (and, refactoring, the device copy before it)
  double solve_ms = 0.0;   // right-hand side up, getrs, solution down
};

class CusolverLu {
 public:
  // Selects the device: throws DeviceUnavailable when there is none.
  CusolverLu(int device, bool reuse_factorization);
  ~CusolverLu();
  CusolverLu(const CusolverLu&) = delete;
  CusolverLu& operator=(const CusolverLu&) = delete;

  // a: row-major n x n, alive and unchanged until the next load. Without reuse the matrix
  // is kept on the device to refactor from at every solve.
  void load(const double* a, std::size_t n);
  // With reuse: getrf of the loaded matrix; throws SolverError when U is singular.
  void factor();
  // With reuse: getrs with the factors; without: getrf afresh, then getrs.
  void solve(const double* b, double* x);

  const LuTimes& last_times() const;
  const std::string& device_name() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::dense
