#pragma once
// The device side of ilu0-cuda: the ILU(0) factors resident in device memory and the two
// triangular solves of an apply, by cuSPARSE's generic SpSV. No CUDA types here, so the
// plugin's C++ stays out of nvcc.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace solvent::ilu {

class DeviceLu {
 public:
  // Uploads L U in one CSR array over A's pattern (L strictly below the diagonal with a
  // unit diagonal, U on and above it, as Ilu0 keeps them; at least one row) and analyses
  // both triangles. T is double or complex. Throws SolverError on a CUDA or cuSPARSE failure.
  template <class T>
  DeviceLu(std::span<const std::int32_t> row_ptr, std::span<const std::int32_t> col_idx,
           std::span<const T> values);
  ~DeviceLu();
  DeviceLu(const DeviceLu&) = delete;
  DeviceLu& operator=(const DeviceLu&) = delete;

  // New values on the same pattern: uploaded, and handed to both analyses
  // (cusparseSpSV_updateMatrix), which are not repeated.
  template <class T>
  void update(std::span<const T> values);

  // z = U^{-1} L^{-1} r on device vectors of the factors' size, on the default stream and
  // asynchronous to the host. L^{-1} r goes to a device temporary, so r and z may be the
  // same vector.
  template <class T>
  void solve(const T* r, T* z) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace solvent::ilu
