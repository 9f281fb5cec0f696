#include <solvent/errors.hpp>
#include <solvent/memory.hpp>

#include <fmt/format.h>

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

namespace solvent {
namespace {

std::atomic<double> cap_bytes{0.0};

std::string size_text(double bytes) {
  constexpr double mib = 1024.0 * 1024.0, gib = 1024.0 * mib;
  return bytes >= gib ? fmt::format("{:.1f} GiB", bytes / gib)
                      : fmt::format("{:.1f} MiB", bytes / mib);
}

// MemAvailable counts what can be had without swapping (free pages plus reclaimable cache),
// which is what a run can allocate; the free pages alone undercount on a machine whose
// memory the page cache holds.
double mem_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  for (std::string line; std::getline(meminfo, line);) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    double kib = 0.0;
    if (fields >> kib) return kib * 1024.0;
  }
  return -1.0;
}

}  // namespace

void set_memory_cap(double bytes) { cap_bytes = bytes > 0.0 ? bytes : 0.0; }

MemoryLimit memory_limit() {
  if (const double cap = cap_bytes; cap > 0.0)
    return {cap, fmt::format("the {} allowed by [run] max_memory_gib", size_text(cap))};
  if (const double available = mem_available_bytes(); available >= 0.0)
    return {available,
            fmt::format("the {} this machine has available (MemAvailable)", size_text(available))};
  const double free_pages =
      static_cast<double>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
  return {free_pages,
          fmt::format("the {} of free physical memory on this machine", size_text(free_pages))};
}

std::string memory_problem(std::string_view who, double bytes, std::string_view what,
                           std::string_view remedy) {
  const auto limit = memory_limit();
  if (bytes <= limit.bytes) return {};
  return fmt::format(
      "{} needs an estimated {} for {}, more than {}; {} or raise [run] "
      "max_memory_gib",
      who, size_text(bytes), what, limit.description, remedy);
}

void require_memory(std::string_view who, double bytes, std::string_view what,
                    std::string_view remedy) {
  if (auto problem = memory_problem(who, bytes, what, remedy); !problem.empty())
    throw ConfigError({std::move(problem)});
}

}  // namespace solvent
