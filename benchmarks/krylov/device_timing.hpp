#pragma once
// The vendor side of the Krylov benchmark, callable from plain C++: cuSPARSE's complex CSR
// SpMV on the same device arrays as our kernel. (Timing: solvent_test/device_timing.hpp.)
#include <solvent/scalar.hpp>

#include <cstdint>
#include <memory>

namespace solvent::krylov::bench {

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
