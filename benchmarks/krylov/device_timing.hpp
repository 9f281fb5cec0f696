#pragma once
// The CUDA side of the Krylov benchmark, callable from plain C++: device timing with
// events, the device's measured copy bandwidth, and cuSPARSE's complex CSR SpMV on the
// same device arrays as our kernel.
#include <solvent/scalar.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace solvent::krylov::bench {

// Median over `reps` of the device time (ms) of what `launch` enqueues, each timed with
// its own pair of CUDA events, after `warmup` untimed runs.
double median_device_ms(const std::function<void()>& launch, int reps, int warmup = 3);

// Device-to-device cudaMemcpy of `bytes`, counted as read + written: GB/s (median of 10).
double copy_bandwidth_gbs(std::size_t bytes);

std::string device_description();

// cuSPARSE y = A x for a complex CSR matrix already in device memory.
class CusparseSpmv {
 public:
  // algorithm: 1 = CUSPARSE_SPMV_CSR_ALG1, 2 = CUSPARSE_SPMV_CSR_ALG2
  CusparseSpmv(std::int64_t rows, std::int64_t nnz, const std::int32_t* row_ptr,
               const std::int32_t* col_idx, const complex* values, const complex* x, complex* y,
               int algorithm);
  ~CusparseSpmv();
  void run();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace solvent::krylov::bench
