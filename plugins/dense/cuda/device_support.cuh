#pragma once
// What both of gepp-cuda's device engines (the elimination pipeline and the blocked LU)
// need beside Solvent's device arrays: graph capture, event timing and the singular-pivot message.
#include "cuda/gepp_kernels.cuh"

#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

namespace solvent::dense {

inline constexpr const char* kGeppCuda = "gepp-cuda";

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
