#include "cuda/device_lu.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>
#include <solvent/scalar.hpp>

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>
#include <string>

namespace solvent::ilu {
namespace {

constexpr const char* kPlugin = "ilu0-cuda";

void check(cudaError_t status, const char* what) { cuda::check(status, kPlugin, what); }

void check(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw SolverError(std::string(kPlugin) + ": " + what + ": " + cusparseGetErrorString(status));
}

template <class T>
constexpr cudaDataType data_type() {
  return scalar_kind_of<T> == ScalarKind::Real ? CUDA_R_64F : CUDA_C_64F;
}

}  // namespace

struct DeviceLu::State {
  cudaDataType type = CUDA_R_64F;
  std::int64_t n = 0;
  std::int64_t nnz = 0;
  std::size_t value_bytes = 0;
  cusparseHandle_t handle = nullptr;
  cuda::DeviceArray<std::byte> row_ptr{0, kPlugin};
  cuda::DeviceArray<std::byte> col_idx{0, kPlugin};
  cuda::DeviceArray<std::byte> values{0, kPlugin};
  // 2 n scalars: the first n hold L^{-1} r during an apply; the second n are only where the
  // analyses' input and output vectors point until an apply points them at r and z.
  cuda::DeviceArray<std::byte> work{0, kPlugin};
  // Two views of the one array: its lower triangle with a unit diagonal, its upper one.
  cusparseSpMatDescr_t lower = nullptr;
  cusparseSpMatDescr_t upper = nullptr;
  cusparseDnVecDescr_t in = nullptr;      // r (cuSPARSE only reads it)
  cusparseDnVecDescr_t middle = nullptr;  // L^{-1} r
  cusparseDnVecDescr_t out = nullptr;     // z
  cusparseSpSVDescr_t lower_solve = nullptr;
  cusparseSpSVDescr_t upper_solve = nullptr;
  cuda::DeviceArray<std::byte> lower_buffer{0, kPlugin};
  cuda::DeviceArray<std::byte> upper_buffer{0, kPlugin};
  // alpha = 1, read as a double or, for complex factors, as a cuDoubleComplex.
  double one[2] = {1.0, 0.0};

  // Every resource is stored in its member before the next call that may throw, so that a
  // constructor failing half-way releases what it had.
  ~State() {
    for (auto d : {lower_solve, upper_solve})
      if (d != nullptr) cusparseSpSV_destroyDescr(d);
    for (auto v : {in, middle, out})
      if (v != nullptr) cusparseDestroyDnVec(v);
    for (auto m : {lower, upper})
      if (m != nullptr) cusparseDestroySpMat(m);
    if (handle != nullptr) cusparseDestroy(handle);
  }

  static void upload(cuda::DeviceArray<std::byte>& to, const void* from, std::size_t bytes) {
    to = cuda::DeviceArray<std::byte>(static_cast<const std::byte*>(from), bytes, kPlugin);
  }

  void triangle(cusparseSpMatDescr_t& m, cusparseFillMode_t fill, cusparseDiagType_t diag) {
    check(cusparseCreateCsr(&m, n, n, nnz, row_ptr.data(), col_idx.data(), values.data(),
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, type),
          "cusparseCreateCsr");
    check(cusparseSpMatSetAttribute(m, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof fill),
          "cusparseSpMatSetAttribute");
    check(cusparseSpMatSetAttribute(m, CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof diag),
          "cusparseSpMatSetAttribute");
  }

  void vector(cusparseDnVecDescr_t& v, void* at) {
    check(cusparseCreateDnVec(&v, n, at, type), "cusparseCreateDnVec");
  }

  void analyse(cusparseSpMatDescr_t m, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
               cusparseSpSVDescr_t& solve, cuda::DeviceArray<std::byte>& buffer) {
    check(cusparseSpSV_createDescr(&solve), "cusparseSpSV_createDescr");
    std::size_t size = 0;
    check(cusparseSpSV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, m, x, y, type,
                                  CUSPARSE_SPSV_ALG_DEFAULT, solve, &size),
          "cusparseSpSV_bufferSize");
    buffer.resize(size);
    check(cusparseSpSV_analysis(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, one, m, x, y, type,
                                CUSPARSE_SPSV_ALG_DEFAULT, solve, buffer.data()),
          "cusparseSpSV_analysis");
  }
};

template <class T>
DeviceLu::DeviceLu(std::span<const std::int32_t> row_ptr, std::span<const std::int32_t> col_idx,
                   std::span<const T> values)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.type = data_type<T>();
  s.n = static_cast<std::int64_t>(row_ptr.size()) - 1;
  s.nnz = static_cast<std::int64_t>(values.size());
  s.value_bytes = values.size_bytes();
  check(cusparseCreate(&s.handle), "cusparseCreate");
  State::upload(s.row_ptr, row_ptr.data(), row_ptr.size_bytes());
  State::upload(s.col_idx, col_idx.data(), col_idx.size_bytes());
  State::upload(s.values, values.data(), s.value_bytes);
  s.work.resize(2 * static_cast<std::size_t>(s.n) * sizeof(T));
  s.triangle(s.lower, CUSPARSE_FILL_MODE_LOWER, CUSPARSE_DIAG_TYPE_UNIT);
  s.triangle(s.upper, CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT);
  T* work = reinterpret_cast<T*>(s.work.data());
  s.vector(s.middle, work);
  s.vector(s.in, work + s.n);
  s.vector(s.out, work + s.n);
  s.analyse(s.lower, s.in, s.middle, s.lower_solve, s.lower_buffer);
  s.analyse(s.upper, s.middle, s.out, s.upper_solve, s.upper_buffer);
}

DeviceLu::~DeviceLu() = default;

template <class T>
void DeviceLu::update(std::span<const T> values) {
  State& s = *state_;
  check(cudaMemcpy(s.values.data(), values.data(), s.value_bytes, cudaMemcpyHostToDevice),
        "cudaMemcpy of the factors");
  check(cusparseSpSV_updateMatrix(s.handle, s.lower_solve, s.values.data(),
                                  CUSPARSE_SPSV_UPDATE_GENERAL),
        "cusparseSpSV_updateMatrix");
  check(cusparseSpSV_updateMatrix(s.handle, s.upper_solve, s.values.data(),
                                  CUSPARSE_SPSV_UPDATE_GENERAL),
        "cusparseSpSV_updateMatrix");
}

template <class T>
void DeviceLu::solve(const T* r, T* z) const {
  State& s = *state_;
  check(cusparseDnVecSetValues(s.in, const_cast<T*>(r)), "cusparseDnVecSetValues");
  check(cusparseDnVecSetValues(s.out, z), "cusparseDnVecSetValues");
  check(cusparseSpSV_solve(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, s.one, s.lower, s.in,
                           s.middle, s.type, CUSPARSE_SPSV_ALG_DEFAULT, s.lower_solve),
        "cusparseSpSV_solve (L)");
  check(cusparseSpSV_solve(s.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, s.one, s.upper, s.middle,
                           s.out, s.type, CUSPARSE_SPSV_ALG_DEFAULT, s.upper_solve),
        "cusparseSpSV_solve (U)");
}

#define SOLVENT_ILU_DEVICE_LU(T)                                                            \
  template DeviceLu::DeviceLu(std::span<const std::int32_t>, std::span<const std::int32_t>, \
                              std::span<const T>);                                          \
  template void DeviceLu::update<T>(std::span<const T>);                                    \
  template void DeviceLu::solve<T>(const T*, T*) const;
SOLVENT_ILU_DEVICE_LU(double)
SOLVENT_ILU_DEVICE_LU(complex)
#undef SOLVENT_ILU_DEVICE_LU

}  // namespace solvent::ilu
