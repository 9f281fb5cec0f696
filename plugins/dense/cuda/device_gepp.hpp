#pragma once
// The device side of gepp-cuda: owns the GPU buffers, the stream and the captured graph,
// and runs one configuration of De Luca et al.'s elimination. No CUDA types in this header,
// so the plugin's C++ code (logging, parameters) stays out of nvcc.
#include <cstddef>
#include <memory>
#include <string>

namespace solvent::dense {

enum class Kernels { Paper, Fused };
enum class Launch { Synchronized, Stream, Graph };

struct EngineOptions {
  Kernels kernels = Kernels::Fused;
  Launch launch = Launch::Graph;
  bool resident_matrix = true;
  bool reuse_factorization = true;
  bool skip_zero_blocks = true;
  bool device_substitution = true;
  int device = 0;
};

// Milliseconds of the last solve (setup's factorisation counts in factor_ms when the
// factorisation is reused), from CUDA events; host substitution from the host clock.
struct PhaseTimes {
  double upload_ms = 0.0;
  double factor_ms = 0.0;
  double substitute_ms = 0.0;
  double download_ms = 0.0;
};

class DeviceGepp {
 public:
  // Selects the device: throws solvent::DeviceUnavailable when there is none.
  explicit DeviceGepp(const EngineOptions& options);
  ~DeviceGepp();
  DeviceGepp(const DeviceGepp&) = delete;
  DeviceGepp& operator=(const DeviceGepp&) = delete;

  // a: row-major n x n; it must stay alive and unchanged until the next setup.
  // Throws solvent::SolverError on a singular pivot when the factorisation is reused.
  void setup(const double* a, std::size_t n);
  // Throws solvent::SolverError on a singular or non-finite pivot.
  void solve(const double* b, double* x);

  const PhaseTimes& last_times() const;
  const std::string& device_name() const;
  // Multiply-adds one factorisation performs (inside the envelope when zero blocks are skipped).
  double updates_per_factorization() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::dense
