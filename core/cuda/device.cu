#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>

#include <cuda_runtime.h>

#include <string>

namespace solvent::cuda {

namespace {
std::string message(const char* context, const char* what, const char* detail) {
  return std::string(context) + ": " + what + ": " + detail;
}

// Counts devices, throwing DeviceUnavailable when there are none or the runtime cannot
// start (no driver, or a driver older than the runtime).
int device_count(const char* context) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    cudaGetLastError();  // the probe's failure must not leak into the next check
    throw DeviceUnavailable(message(context, "no CUDA device", cudaGetErrorString(status)));
  }
  if (count == 0) throw DeviceUnavailable(message(context, "no CUDA device", "none found"));
  return count;
}

std::string device_name(int ordinal, const char* context) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), context, "cudaGetDeviceProperties");
  return prop.name;
}
}  // namespace

void check(int status, const char* context, const char* what) {
  const auto error = static_cast<cudaError_t>(status);
  if (error == cudaSuccess) return;
  cudaGetLastError();
  throw SolverError(message(context, what, cudaGetErrorString(error)));
}

void check_launch(const char* context, const char* kernel) {
  check(cudaGetLastError(), context, kernel);
}

namespace {
// The ordinal checked against the devices present.
void check_ordinal(int ordinal, const char* context) {
  const int count = device_count(context);
  if (ordinal < 0 || ordinal >= count)
    throw DeviceUnavailable(std::string(context) + ": no CUDA device " + std::to_string(ordinal) +
                            ": only " + std::to_string(count) + " present");
}

// "<ordinal>: <name>", as the record names a rank's GPU.
std::string labelled(int ordinal, const std::string& name) {
  return std::to_string(ordinal) + ": " + name;
}
}  // namespace

std::string select_device(int ordinal, const char* context) {
  check_ordinal(ordinal, context);
  check(cudaSetDevice(ordinal), context, "cudaSetDevice");
  return device_name(ordinal, context);
}

std::string select_rank_device(const Communicator& comm, const char* context) {
  const int ordinal = rank_device_ordinal(comm, context);
  return labelled(ordinal, select_device(ordinal, context));
}

int rank_device_ordinal(const Communicator& comm, const char* context) {
  return comm.local_rank() % device_count(context);
}

std::string device_label(int ordinal, const char* context) {
  check_ordinal(ordinal, context);
  return labelled(ordinal, device_name(ordinal, context));
}

int available_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // a failed probe must not leak into the next check
    return 0;
  }
  return count;
}

std::string current_device(const char* context) {
  device_count(context);
  int ordinal = 0;
  check(cudaGetDevice(&ordinal), context, "cudaGetDevice");
  return device_name(ordinal, context);
}

namespace {
std::thread make_context(int ordinal) {
  return std::thread([ordinal] {
    // cudaFree(nullptr) does nothing but make the device's primary context exist.
    if (cudaSetDevice(ordinal) != cudaSuccess || cudaFree(nullptr) != cudaSuccess)
      cudaGetLastError();
  });
}
}  // namespace

ContextStart::ContextStart() {
  int ordinal = 0;
  if (cudaGetDevice(&ordinal) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  thread_ = make_context(ordinal);
}

ContextStart::ContextStart(int ordinal) : thread_(make_context(ordinal)) {}

void ContextStart::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace solvent::cuda
