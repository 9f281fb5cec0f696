#pragma once
// The device layer every CUDA plugin shares (target Solvent::cuda): one way to turn a CUDA
// runtime failure into a Solvent error and one way to find a device. The declarations take
// the status as an int (a cudaError_t converts implicitly), so this header includes no CUDA
// header and host code of a plugin can call the probe too.
//
// Messages read "<context>: <what>: <CUDA's own text>", where context names the plugin
// (or plugin and device, "explicit-stencil3d (cuda)") and what names the call or kernel.
#include <solvent/communicator.hpp>

#include <string>
#include <thread>

namespace solvent::cuda {

// Throws SolverError when status is not cudaSuccess. A failed call also sets CUDA's sticky
// "last error"; it is cleared here so the next launch check does not report it again.
void check(int status, const char* context, const char* what);

// A kernel launch is checked twice: its configuration here, right after the launch, and
// its execution at the next synchronising call, which goes through check().
void check_launch(const char* context, const char* kernel);

// Makes `ordinal` the calling thread's device and returns its name. Throws DeviceUnavailable
// ("<context>: no CUDA device: <reason>") when the runtime finds no usable device or fewer
// than ordinal + 1; the caller decides whether that is fatal or a fallback.
std::string select_device(int ordinal, const char* context);

// Over several ranks, one GPU per rank: makes GPU local_rank % (GPUs on the host) current,
// as select_device does, and returns "<ordinal>: <name>". A CUDA plugin made over several
// ranks calls it when made, before it touches the device, or names its GPU with the two
// below and makes it current at its set-up.
std::string select_rank_device(const Communicator& comm, const char* context);

// The GPU select_rank_device would make current (local_rank % GPUs on the host), and
// "<ordinal>: <name>" for a GPU, neither making a context (CUDA 12 makes one as a device
// becomes current): for a plugin that has its context made on a thread of its own
// (ContextStart(ordinal)) and makes the GPU current at its set-up (matm-cuda). Both throw
// DeviceUnavailable as select_device does.
int rank_device_ordinal(const Communicator& comm, const char* context);
std::string device_label(int ordinal, const char* context);

// The GPUs this process can use; 0 where there is no driver or no device (no exception).
int available_devices();

// The name of the calling thread's current device, after the same probe as select_device.
std::string current_device(const char* context);

// Creates the calling thread's current device's context (or device `ordinal`'s) on a thread
// of its own (about half a second on a large GPU, up to a second where four processes make
// theirs at once, paid at the first call that needs it), so that a plugin made before the
// model assembles finds it ready at its set-up. wait() (or the destructor) joins that
// thread; a failure is left for the plugin's own probe to report.
class ContextStart {
 public:
  ContextStart();
  explicit ContextStart(int ordinal);
  ~ContextStart() { wait(); }
  ContextStart(const ContextStart&) = delete;
  ContextStart& operator=(const ContextStart&) = delete;
  void wait();

 private:
  std::thread thread_;
};

}  // namespace solvent::cuda
