#pragma once
// The CUDA engine of imex-batched-cuda (cuda/batched_cuda.cu).
#include "src/batched_members.hpp"

namespace solvent::imex {

// Throws DeviceUnavailable where there is no GPU.
std::unique_ptr<BatchEngine> make_cuda_engine(const BatchHost& shape, std::size_t members,
                                              bool projection, double projection_limit);

}  // namespace solvent::imex
