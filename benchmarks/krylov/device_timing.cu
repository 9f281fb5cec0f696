#include "device_timing.hpp"

#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>

#include <cuda_runtime.h>
#include <cusparse.h>

#include <string>

namespace solvent::krylov::bench {
namespace {

void check(cusparseStatus_t e, const char* what) {
  if (e != CUSPARSE_STATUS_SUCCESS)
    throw SolverError(std::string(what) + ": " + cusparseGetErrorString(e));
}

}  // namespace

struct CusparseSpmv::State {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  solvent::cuda::DeviceArray<std::byte> buffer;
  cusparseSpMVAlg_t alg = CUSPARSE_SPMV_CSR_ALG1;
  cuDoubleComplex one{1.0, 0.0}, zero{0.0, 0.0};
};

CusparseSpmv::CusparseSpmv(std::int64_t rows, std::int64_t nnz, const std::int32_t* row_ptr,
                           const std::int32_t* col_idx, const complex* values, const complex* x,
                           complex* y, int algorithm)
    : s_(std::make_unique<State>()) {
  s_->alg = algorithm == 2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_CSR_ALG1;
  check(cusparseCreate(&s_->handle), "cusparseCreate");
  check(cusparseCreateCsr(&s_->a, rows, rows, nnz, const_cast<std::int32_t*>(row_ptr),
                          const_cast<std::int32_t*>(col_idx), const_cast<complex*>(values),
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                          CUDA_C_64F),
        "cusparseCreateCsr");
  check(cusparseCreateDnVec(&s_->x, rows, const_cast<complex*>(x), CUDA_C_64F),
        "cusparseCreateDnVec");
  check(cusparseCreateDnVec(&s_->y, rows, y, CUDA_C_64F), "cusparseCreateDnVec");
  std::size_t bytes = 0;
  check(cusparseSpMV_bufferSize(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->one, s_->a,
                                s_->x, &s_->zero, s_->y, CUDA_C_64F, s_->alg, &bytes),
        "cusparseSpMV_bufferSize");
  s_->buffer =
      solvent::cuda::DeviceArray<std::byte>(std::max<std::size_t>(bytes, 16), "cusparse benchmark");
}

CusparseSpmv::~CusparseSpmv() {
  cusparseDestroyDnVec(s_->x);
  cusparseDestroyDnVec(s_->y);
  cusparseDestroySpMat(s_->a);
  cusparseDestroy(s_->handle);
}

void CusparseSpmv::run() {
  check(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->one, s_->a, s_->x,
                     &s_->zero, s_->y, CUDA_C_64F, s_->alg, s_->buffer.data()),
        "cusparseSpMV");
}

}  // namespace solvent::krylov::bench
