#pragma once
// Every CUDA call and launch is checked; a failure becomes a SolverError naming the call.
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <string>

namespace solvent::matm::cuda {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw SolverError(std::string("matm-cuda: ") + what + ": " + cudaGetErrorString(e));
}

inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

}  // namespace solvent::matm::cuda
