#pragma once
// What both of gepp-cuda's device engines (the elimination pipeline and the blocked LU)
// need: device buffers, graph capture, event timing and the singular-pivot message.
#include "cuda/gepp_kernels.cuh"

#include <solvent/cuda.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

namespace solvent::dense {

inline constexpr const char* kGeppCuda = "gepp-cuda";

// A device buffer, reallocated only when its size changes, so repeated setups of one order
// (a new matrix every time step) allocate nothing.

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { release(); }

  void resize(std::size_t count) {
    if (count == count_) return;
    release();
    if (count > 0)
      check(cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T)), "cudaMalloc");
    count_ = count;
  }
  void upload(const T* host, std::size_t count, cudaStream_t stream) {
    check(cudaMemcpyAsync(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream),
          "cudaMemcpyAsync to device");
  }
  void download(T* host, std::size_t count, cudaStream_t stream) const {
    check(cudaMemcpyAsync(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync to host");
  }
  T* get() const { return ptr_; }

 private:
  static void check(cudaError_t status, const char* what) { cuda::check(status, kGeppCuda, what); }
  void release() {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

// What `enqueue` puts on `stream`, captured as a graph ready to launch: one launch replays
// a whole factorisation without the host's cost per kernel. Should enqueue throw, the
// capture is ended and dropped before the error leaves.
template <class Enqueue>
cudaGraphExec_t capture_graph(cudaStream_t stream, Enqueue&& enqueue) {
  cudaGraph_t captured = nullptr;
  cuda::check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), kGeppCuda,
              "cudaStreamBeginCapture");
  try {
    enqueue();
  } catch (...) {
    cudaStreamEndCapture(stream, &captured);
    if (captured != nullptr) cudaGraphDestroy(captured);
    throw;
  }
  cuda::check(cudaStreamEndCapture(stream, &captured), kGeppCuda, "cudaStreamEndCapture");
  cudaGraphExec_t graph = nullptr;
  const cudaError_t status = cudaGraphInstantiate(&graph, captured, 0);
  cudaGraphDestroy(captured);
  cuda::check(status, kGeppCuda, "cudaGraphInstantiate");
  return graph;
}

inline double elapsed_ms(cudaEvent_t from, cudaEvent_t to) {
  float ms = 0.0f;
  cuda::check(cudaEventElapsedTime(&ms, from, to), kGeppCuda, "cudaEventElapsedTime");
  return ms;
}

inline std::string singular_pivot_message(const PivotFailure& f, std::size_t n) {
  std::ostringstream out;
  // Worded as gepp-cpu's message, so a run reads the same whichever back end failed.
  out << kGeppCuda << ": singular matrix: pivot " << std::fabs(f.value) << " at elimination step "
      << f.step + 1 << " of " << n << " (column " << f.step << ")";
  return out.str();
}

}  // namespace solvent::dense
