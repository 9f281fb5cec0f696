#include "cuda/cusolver_lu.hpp"

#include <solvent/cuda.hpp>
#include <solvent/errors.hpp>

#include <cusolverDn.h>

#include <string>

namespace solvent::dense {
namespace {

constexpr const char* kPlugin = "cusolver";

void check(cudaError_t status, const char* what) { cuda::check(status, kPlugin, what); }

void check(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS) {
    throw SolverError(std::string(kPlugin) + ": " + what + " failed with cusolverStatus " +
                      std::to_string(static_cast<int>(status)));
  }
}

template <class T>
T* device_alloc(std::size_t count) {
  void* p = nullptr;
  if (count > 0) check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
  return static_cast<T*>(p);
}

}  // namespace

struct CusolverLu::State {
  bool reuse = true;
  std::string name;
  cudaStream_t stream = nullptr;
  cusolverDnHandle_t handle = nullptr;
  cudaEvent_t marks[3] = {};  // start, factored, solved
  std::size_t n = 0;
  // The row-major matrix read column-major is A^T: cuSOLVER factors A^T = P L U and getrs
  // solves with the transpose, so no explicit transposition is needed.
  double* lu = nullptr;
  double* pristine = nullptr;  // refactoring: the matrix kept on the device
  double* work = nullptr;
  double* rhs = nullptr;
  int* pivots = nullptr;
  int* info = nullptr;
  LuTimes times;

  ~State() {
    release();
    if (handle != nullptr) cusolverDnDestroy(handle);
    for (cudaEvent_t e : marks) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  void release() {
    for (void* p :
         {static_cast<void*>(lu), static_cast<void*>(pristine), static_cast<void*>(work),
          static_cast<void*>(rhs), static_cast<void*>(pivots), static_cast<void*>(info)}) {
      if (p != nullptr) cudaFree(p);
    }
    lu = pristine = work = rhs = nullptr;
    pivots = info = nullptr;
  }

  int ni() const { return static_cast<int>(n); }

  void factor() {
    check(cusolverDnDgetrf(handle, ni(), ni(), lu, ni(), work, pivots, info), "cusolverDnDgetrf");
    int status = 0;
    check(cudaMemcpyAsync(&status, info, sizeof status, cudaMemcpyDeviceToHost, stream),
          "reading getrf's info");
    check(cudaStreamSynchronize(stream), "cusolverDnDgetrf");
    if (status > 0) {
      throw SolverError("cusolver: singular matrix: getrf found U(" + std::to_string(status) + "," +
                        std::to_string(status) + ") = 0 at elimination step " +
                        std::to_string(status) + " of " + std::to_string(n));
    }
    if (status < 0)
      throw SolverError("cusolver: getrf rejected argument " + std::to_string(-status));
  }

  double elapsed(int from, int to) const {
    float ms = 0.0f;
    check(cudaEventElapsedTime(&ms, marks[from], marks[to]), "cudaEventElapsedTime");
    return ms;
  }
};

CusolverLu::CusolverLu(int device, bool reuse_factorization) : state_(std::make_unique<State>()) {
  state_->reuse = reuse_factorization;
  state_->name = cuda::select_device(device, kPlugin);
  check(cudaStreamCreateWithFlags(&state_->stream, cudaStreamNonBlocking), "cudaStreamCreate");
  for (cudaEvent_t& e : state_->marks) check(cudaEventCreate(&e), "cudaEventCreate");
  check(cusolverDnCreate(&state_->handle), "cusolverDnCreate");
  check(cusolverDnSetStream(state_->handle, state_->stream), "cusolverDnSetStream");
}

CusolverLu::~CusolverLu() = default;

void CusolverLu::setup(const double* a, std::size_t n) {
  State& s = *state_;
  s.release();
  s.n = n;
  if (n == 0) return;
  const std::size_t entries = n * n;
  s.lu = device_alloc<double>(entries);
  s.rhs = device_alloc<double>(n);
  s.pivots = device_alloc<int>(n);
  s.info = device_alloc<int>(1);
  int lwork = 0;
  check(cusolverDnDgetrf_bufferSize(s.handle, s.ni(), s.ni(), s.lu, s.ni(), &lwork),
        "cusolverDnDgetrf_bufferSize");
  s.work = device_alloc<double>(static_cast<std::size_t>(lwork));
  double* target = s.lu;
  if (!s.reuse) {
    s.pristine = device_alloc<double>(entries);
    target = s.pristine;
  }
  check(cudaMemcpyAsync(target, a, entries * sizeof(double), cudaMemcpyHostToDevice, s.stream),
        "cudaMemcpyAsync of the matrix");
  if (s.reuse) {
    check(cudaEventRecord(s.marks[0], s.stream), "cudaEventRecord");
    s.factor();
    check(cudaEventRecord(s.marks[1], s.stream), "cudaEventRecord");
    check(cudaStreamSynchronize(s.stream), "cusolver setup");
    s.times = LuTimes{s.elapsed(0, 1), 0.0};
  } else {
    check(cudaStreamSynchronize(s.stream), "cusolver setup");
  }
}

void CusolverLu::solve(const double* b, double* x) {
  State& s = *state_;
  if (s.n == 0) return;
  check(cudaEventRecord(s.marks[0], s.stream), "cudaEventRecord");
  if (!s.reuse) {
    check(cudaMemcpyAsync(s.lu, s.pristine, s.n * s.n * sizeof(double), cudaMemcpyDeviceToDevice,
                          s.stream),
          "cudaMemcpyAsync restoring the matrix");
    s.factor();
  }
  check(cudaEventRecord(s.marks[1], s.stream), "cudaEventRecord");
  check(cudaMemcpyAsync(s.rhs, b, s.n * sizeof(double), cudaMemcpyHostToDevice, s.stream),
        "cudaMemcpyAsync of the right-hand side");
  check(cusolverDnDgetrs(s.handle, CUBLAS_OP_T, s.ni(), 1, s.lu, s.ni(), s.pivots, s.rhs, s.ni(),
                         s.info),
        "cusolverDnDgetrs");
  check(cudaMemcpyAsync(x, s.rhs, s.n * sizeof(double), cudaMemcpyDeviceToHost, s.stream),
        "cudaMemcpyAsync of the solution");
  check(cudaEventRecord(s.marks[2], s.stream), "cudaEventRecord");
  check(cudaStreamSynchronize(s.stream), "cusolverDnDgetrs");
  s.times = LuTimes{s.elapsed(0, 1), s.elapsed(1, 2)};
}

const LuTimes& CusolverLu::last_times() const { return state_->times; }
const std::string& CusolverLu::device_name() const { return state_->name; }

}  // namespace solvent::dense
