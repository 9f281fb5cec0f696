#include "device_timing.hpp"

#include <solvent/errors.hpp>

#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <vector>

namespace solvent::krylov::bench {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw SolverError(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cusparseStatus_t e, const char* what) {
  if (e != CUSPARSE_STATUS_SUCCESS)
    throw SolverError(std::string(what) + ": " + cusparseGetErrorString(e));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double median_device_ms(const std::function<void()>& launch, int reps, int warmup) {
  for (int i = 0; i < warmup; ++i) launch();
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(start), "cudaEventRecord");
    launch();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(ms);
}

double copy_bandwidth_gbs(std::size_t bytes) {
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMemset(a, 1, bytes), "cudaMemset");
  const double ms = median_device_ms(
      [&] { check(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "cudaMemcpy"); }, 10);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(bytes) / (ms * 1e6);
}

std::string device_description() {
  int device = 0, driver = 0, runtime = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  cudaDeviceProp p{};
  check(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties");
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs, " +
         std::to_string(p.totalGlobalMem >> 30) + " GiB, L2 " + std::to_string(p.l2CacheSize >> 20) +
         " MiB, driver " + std::to_string(driver) + ", runtime " + std::to_string(runtime);
}

struct CusparseSpmv::State {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  void* buffer = nullptr;
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
  check(cusparseCreateDnVec(&s_->x, rows, const_cast<complex*>(x), CUDA_C_64F), "cusparseCreateDnVec");
  check(cusparseCreateDnVec(&s_->y, rows, y, CUDA_C_64F), "cusparseCreateDnVec");
  std::size_t bytes = 0;
  check(cusparseSpMV_bufferSize(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->one, s_->a,
                                s_->x, &s_->zero, s_->y, CUDA_C_64F, s_->alg, &bytes),
        "cusparseSpMV_bufferSize");
  check(cudaMalloc(&s_->buffer, std::max<std::size_t>(bytes, 16)), "cudaMalloc");
}

CusparseSpmv::~CusparseSpmv() {
  cudaFree(s_->buffer);
  cusparseDestroyDnVec(s_->x);
  cusparseDestroyDnVec(s_->y);
  cusparseDestroySpMat(s_->a);
  cusparseDestroy(s_->handle);
}

void CusparseSpmv::run() {
  check(cusparseSpMV(s_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &s_->one, s_->a, s_->x,
                     &s_->zero, s_->y, CUDA_C_64F, s_->alg, s_->buffer),
        "cusparseSpMV");
}

}  // namespace solvent::krylov::bench
