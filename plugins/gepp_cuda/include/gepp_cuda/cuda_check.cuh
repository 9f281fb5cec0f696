#pragma once
// Turning CUDA runtime failures into Solvent errors (shared by gepp-cuda and cusolver).
// The device is probed lazily, on first use, never when the plugin is loaded.
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <string>

namespace gepp_cuda {

// Throws SolverError "<plugin>: <what>: <CUDA message>" when a call failed.
inline void check_cuda(cudaError_t status, const char* plugin, const char* what) {
  if (status != cudaSuccess) {
    cudaGetLastError();  // a failed call also sets the last error; later launch checks must not see it
    throw solvent::SolverError(std::string(plugin) + ": " + what + ": " + cudaGetErrorString(status));
  }
}

// A kernel launch is checked twice: the launch itself, and (on the next synchronisation)
// its execution; this checks the launch.
inline void check_launch(const char* plugin, const char* kernel) {
  check_cuda(cudaGetLastError(), plugin, kernel);
}

// Selects `ordinal`; throws DeviceUnavailable with one line when there is no usable GPU.
inline void select_device(int ordinal, const char* plugin) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // the probe's failure must not leak into the next check
    throw solvent::DeviceUnavailable(std::string(plugin) + ": no CUDA device: " +
                                     cudaGetErrorString(status));
  }
  if (count == 0) {
    throw solvent::DeviceUnavailable(std::string(plugin) + ": no CUDA device: none found");
  }
  if (ordinal >= count) {
    throw solvent::DeviceUnavailable(std::string(plugin) + ": no CUDA device " +
                                     std::to_string(ordinal) + ": only " + std::to_string(count) +
                                     " present");
  }
  check_cuda(cudaSetDevice(ordinal), plugin, "cudaSetDevice");
}

inline std::string device_name(int ordinal) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess) return "unknown CUDA device";
  return prop.name;
}

}  // namespace gepp_cuda
