#include "run/device_probe.hpp"

#include "loader/plugin_registry.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <string_view>

namespace solvent {

std::string cuda_absence() {
  // The driver API through the driver library itself, loaded at run time: the core links no
  // CUDA library (a build without nvcc has none to link), and the driver, not the runtime, is
  // what a machine without a GPU lacks. cuInit also honours CUDA_VISIBLE_DEVICES.
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    const char* why = dlerror();
    return fmt::format("no NVIDIA driver ({})", why ? why : "libcuda.so.1 not found");
  }
  using Init = int (*)(unsigned);
  using Count = int (*)(int*);
  using ErrorString = int (*)(int, const char**);
  const auto init = reinterpret_cast<Init>(dlsym(driver, "cuInit"));
  const auto count = reinterpret_cast<Count>(dlsym(driver, "cuDeviceGetCount"));
  const auto describe = reinterpret_cast<ErrorString>(dlsym(driver, "cuGetErrorString"));
  if (init == nullptr || count == nullptr) return "the NVIDIA driver library has no cuInit";
  int devices = 0;
  int status = init(0);
  if (status == 0) status = count(&devices);
  // The library stays loaded: the CUDA plugins load it again, and unloading a driver that
  // was initialised is not supported.
  if (status != 0) {
    const char* text = nullptr;
    if (describe) describe(status, &text);
    return fmt::format("the NVIDIA driver sees no usable CUDA device (error {}: {})", status,
                       text ? text : "unknown");
  }
  return devices > 0 ? std::string() : "the NVIDIA driver sees no CUDA device";
}

std::string gpu_only_problem(const ResolvedConfig& cfg) {
  struct Role {
    const char* label;
    const std::optional<ResolvedRole>* role;
    const char* section;
  };
  const Role roles[] = {{"model", &cfg.model, "model"},
                        {"integrator", &cfg.integrator, "integrator"},
                        {"linear solver", &cfg.linear_solver, "linear_solver"},
                        {"preconditioner", &cfg.preconditioner, "preconditioner"}};
  std::string problems;
  std::string absence;
  bool probed = false;
  for (const auto& [label, role, section] : roles) {
    if (!*role || std::string_view((*role)->plugin->descriptor->device) != "cuda") continue;
    // A linear solver with a fallback runs the fallback (and it without a preconditioner).
    if (!cfg.fallback.empty() && (role == &cfg.linear_solver || role == &cfg.preconditioner))
      continue;
    if (!probed) absence = cuda_absence();
    probed = true;
    if (absence.empty()) return {};
    const std::string name = (*role)->plugin->descriptor->name;
    // Its CPU counterpart by the naming of the in-tree plugins (cg-cuda and cg, gepp-cuda
    // and gepp-cpu), where this build has one.
    std::string instead;
    if (name.ends_with("-cuda"))
      for (const auto& twin : {name.substr(0, name.size() - 5), name.substr(0, name.size() - 4) + "cpu"})
        if (const auto names = cfg.registry->names((*role)->plugin->descriptor->kind);
            instead.empty() && std::find(names.begin(), names.end(), twin) != names.end())
          instead = twin;
    std::string advice =
        instead.empty()
            ? fmt::format("choose a {} that runs on the CPU (solvent plugins lists them)", label)
            : fmt::format("use its CPU counterpart '{}' (--set {}.type={})", instead, section,
                          instead);
    if (role == &cfg.linear_solver)
      advice += instead.empty() ? ", or name one as [linear_solver] fallback"
                                : fmt::format(", or keep it with [linear_solver] fallback = \"{}\"",
                                              instead);
    problems += fmt::format("{}{}: {} '{}' runs on a CUDA GPU only, and this machine has none: "
                            "{}; {}",
                            problems.empty() ? "" : "\n", (*role)->where, label, name, absence,
                            advice);
  }
  return problems;
}

}  // namespace solvent
