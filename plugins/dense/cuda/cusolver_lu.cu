#include "cuda/cusolver_lu.hpp"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
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
cuda::DeviceArray<T> device_alloc(std::size_t count) {
  return cuda::DeviceArray<T>(count, kPlugin);
}

}  // namespace

struct CusolverLu::State {
  bool reuse = true;
  std::string name;
  cudaStream_t stream = nullptr;
  cusolverDnHandle_t handle = nullptr;
  cudaEvent_t marks[3] = {};  // start, factored, solved
  std::size_t n = 0;
  const double* matrix = nullptr;  // the loaded one, on the host
  // The row-major matrix read column-major is A^T: cuSOLVER factors A^T = P L U and getrs
  // solves with the transpose, so no explicit transposition is needed.
  cuda::DeviceArray<double> lu;
  cuda::DeviceArray<double> pristine;  // refactoring: the matrix kept on the device
  cuda::DeviceArray<double> work;
  cuda::DeviceArray<double> rhs;
  cuda::DeviceArray<int> pivots;
  cuda::DeviceArray<int> info;
  LuTimes times;

  ~State() {
    if (handle != nullptr) cusolverDnDestroy(handle);
    for (cudaEvent_t e : marks) {
      if (e != nullptr) cudaEventDestroy(e);
    }
    if (stream != nullptr) cudaStreamDestroy(stream);
  }

  int ni() const { return static_cast<int>(n); }

  void factor() {
    check(cusolverDnDgetrf(handle, ni(), ni(), lu.data(), ni(), work.data(), pivots.data(),
                           info.data()),
          "cusolverDnDgetrf");
    int status = 0;
    check(cudaMemcpyAsync(&status, info.data(), sizeof status, cudaMemcpyDeviceToHost, stream),
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

void CusolverLu::load(const double* a, std::size_t n) {
  State& s = *state_;
  s.n = n;
  if (n == 0) return;
  const std::size_t entries = n * n;
  s.lu = device_alloc<double>(entries);
  s.rhs = device_alloc<double>(n);
  s.pivots = device_alloc<int>(n);
  s.info = device_alloc<int>(1);
  int lwork = 0;
  check(cusolverDnDgetrf_bufferSize(s.handle, s.ni(), s.ni(), s.lu.data(), s.ni(), &lwork),
        "cusolverDnDgetrf_bufferSize");
  s.work = device_alloc<double>(static_cast<std::size_t>(lwork));
  s.matrix = a;
  if (!s.reuse) {
    s.pristine = device_alloc<double>(entries);
    check(cudaMemcpyAsync(s.pristine.data(), a, entries * sizeof(double), cudaMemcpyHostToDevice,
                          s.stream),
          "cudaMemcpyAsync of the matrix");
    check(cudaStreamSynchronize(s.stream), "cusolver setup");
  }
}

void CusolverLu::factor() {
  State& s = *state_;
  if (s.n == 0) return;
  check(cudaMemcpyAsync(s.lu.data(), s.matrix, s.n * s.n * sizeof(double), cudaMemcpyHostToDevice,
                        s.stream),
        "cudaMemcpyAsync of the matrix");
  check(cudaEventRecord(s.marks[0], s.stream), "cudaEventRecord");
  s.factor();
  check(cudaEventRecord(s.marks[1], s.stream), "cudaEventRecord");
  check(cudaStreamSynchronize(s.stream), "cusolver setup");
  s.times = LuTimes{s.elapsed(0, 1), 0.0};
}

void CusolverLu::solve(const double* b, double* x) {
  State& s = *state_;
  if (s.n == 0) return;
  check(cudaEventRecord(s.marks[0], s.stream), "cudaEventRecord");
  if (!s.reuse) {
    check(cudaMemcpyAsync(s.lu.data(), s.pristine.data(), s.n * s.n * sizeof(double),
                          cudaMemcpyDeviceToDevice, s.stream),
          "cudaMemcpyAsync restoring the matrix");
    s.factor();
  }
  check(cudaEventRecord(s.marks[1], s.stream), "cudaEventRecord");
  check(cudaMemcpyAsync(s.rhs.data(), b, s.n * sizeof(double), cudaMemcpyHostToDevice, s.stream),
        "cudaMemcpyAsync of the right-hand side");
  check(cusolverDnDgetrs(s.handle, CUBLAS_OP_T, s.ni(), 1, s.lu.data(), s.ni(), s.pivots.data(),
                         s.rhs.data(), s.ni(), s.info.data()),
        "cusolverDnDgetrs");
  check(cudaMemcpyAsync(x, s.rhs.data(), s.n * sizeof(double), cudaMemcpyDeviceToHost, s.stream),
        "cudaMemcpyAsync of the solution");
  check(cudaEventRecord(s.marks[2], s.stream), "cudaEventRecord");
  check(cudaStreamSynchronize(s.stream), "cusolverDnDgetrs");
  s.times = LuTimes{s.elapsed(0, 1), s.elapsed(1, 2)};
}

const LuTimes& CusolverLu::last_times() const { return state_->times; }
const std::string& CusolverLu::device_name() const { return state_->name; }

}  // namespace solvent::dense
