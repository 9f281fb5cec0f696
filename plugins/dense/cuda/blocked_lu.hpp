#pragma once
// gepp-cuda's mode = "blocked": right-looking blocked LU with partial pivoting on the GPU.
// Panels of block_size columns are factored by a one-block kernel that keeps De Luca et
// al.'s atomic-max pivot search (in sub-panels held in shared memory); the rows they swap
// are swapped in the other columns, cuBLAS's DTRSM gives the U12 block and DGEMM the
// trailing update. Solves substitute with the factors (DTRSV).
#include "cuda/device_engine.hpp"
#include "cuda/device_gepp.hpp"

#include <memory>

namespace solvent::dense {

// block_size's largest value: a panel's row swaps, composed (two moves a step at most),
// fit one block's shared memory.
inline constexpr int kMaxBlockSize = 256;

class BlockedLu final : public DeviceEngine {
 public:
  // Selects the device: throws solvent::DeviceUnavailable when there is none.
  explicit BlockedLu(const EngineOptions& options);
  ~BlockedLu() override;
  BlockedLu(const BlockedLu&) = delete;
  BlockedLu& operator=(const BlockedLu&) = delete;

  void load(const double* a, std::size_t n) override;
  void factor() override;
  void solve(const double* b, double* x) override;

  const PhaseTimes& last_times() const override;
  const std::string& device_name() const override;
  double updates_per_factorization() const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::dense
