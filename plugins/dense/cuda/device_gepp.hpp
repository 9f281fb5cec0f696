#pragma once
// The device side of gepp-cuda: owns the GPU buffers, the stream and the captured graph,
// and runs one configuration of De Luca et al.'s elimination.
#include "cuda/device_engine.hpp"

#include <cstddef>
#include <memory>
#include <string>

namespace solvent::dense {

enum class Kernels { Paper, Fused };
enum class Launch { Synchronized, Stream, Graph };

struct EngineOptions {
  // mode = "blocked": BlockedLu with panels of block_size columns factored by blocks of
  // panel_threads threads, the matrix sent through page-locked chunks or not
  // (pinned_upload); the switches below (but reuse_factorization and device) belong to the
  // elimination pipeline.
  bool blocked = false;
  int block_size = 64;
  int panel_threads = 1024;
  bool pinned_upload = true;
  Kernels kernels = Kernels::Fused;
  Launch launch = Launch::Graph;
  bool resident_matrix = true;
  bool reuse_factorization = true;
  bool skip_zero_blocks = true;
  bool device_substitution = true;
  int device = 0;
};

class DeviceGepp final : public DeviceEngine {
 public:
  // Selects the device: throws solvent::DeviceUnavailable when there is none.
  explicit DeviceGepp(const EngineOptions& options);
  ~DeviceGepp() override;
  DeviceGepp(const DeviceGepp&) = delete;
  DeviceGepp& operator=(const DeviceGepp&) = delete;

  void load(const double* a, std::size_t n) override;
  void factor() override;
  void solve(const double* b, double* x) override;

  const PhaseTimes& last_times() const override;
  const std::string& device_name() const override;
  // Inside the envelope when zero blocks are skipped.
  double updates_per_factorization() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::dense
