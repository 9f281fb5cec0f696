#include "record/host_info.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <thread>

namespace solvent {

namespace {
std::string first_line_with(const std::string& file, const std::string& prefix) {
  std::ifstream f(file);
  for (std::string line; std::getline(f, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    auto colon = line.find(':');
    auto v = colon == std::string::npos ? line : line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    return v;
  }
  return {};
}

// The NVIDIA driver lists each GPU under /proc without any CUDA call, so recording the
// hardware never initialises a device (and works where no CUDA runtime is installed).
std::string nvidia_gpus() {
  std::string out;
  std::error_code ec;
  const std::filesystem::path dir = "/proc/driver/nvidia/gpus";
  if (!std::filesystem::is_directory(dir, ec)) return "none";
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    auto model = first_line_with((e.path() / "information").string(), "Model");
    if (!model.empty()) out += (out.empty() ? "" : "; ") + model;
  }
  return out.empty() ? "none" : out;
}
}  // namespace

HostInfo probe_host() {
  HostInfo h;
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0) h.hostname = name;
  utsname u{};
  if (uname(&u) == 0) h.os = std::string(u.sysname) + " " + u.release + " " + u.machine;
  h.cpu = first_line_with("/proc/cpuinfo", "model name");
  h.cores = std::thread::hardware_concurrency();
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  h.cores_allowed = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                        ? static_cast<unsigned>(CPU_COUNT(&allowed))
                        : h.cores;
  // The OpenMP plugins' thread count: OMP_NUM_THREADS (its first level) where set, else one
  // per allowed core, OpenMP's default. The CPU reductions give the same bits for any count;
  // the record says which ran.
  h.threads = h.cores_allowed;
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0)
    h.threads = static_cast<unsigned>(std::atoi(env));
  h.gpus = nvidia_gpus();
  return h;
}

}  // namespace solvent
