#pragma once
// Sizes checked before allocating. A plugin whose memory grows with its parameters (grid
// points, mesh resolution) estimates what it will allocate and calls require_memory before
// the large allocations, so that a size that cannot fit ends as a configuration error
// (exit 2) naming the estimate and the limit, before any output exists, rather than as
// std::bad_alloc (or the kernel's out-of-memory killer) halfway through a run.
//
// Sizes are doubles: an estimate such as nx * ny * nz * 8 overflows no integer type on its
// way to the comparison.
#include <string>
#include <string_view>

namespace solvent {

// The most memory a run may plan to use: [run] max_memory_gib where the configuration sets
// it above 0 (it may be larger than what is free now: the user knows best), otherwise the
// memory this machine has available now (/proc/meminfo MemAvailable, or the free physical
// pages where that file is missing).
struct MemoryLimit {
  double bytes = 0.0;
  std::string description;  // "the 8.0 GiB allowed by [run] max_memory_gib", ...
};
MemoryLimit memory_limit();

// Empty when `bytes` fit under memory_limit(); otherwise the message
//   "<who> needs an estimated <bytes> for <what>, more than <limit>; <remedy> or raise
//    [run] max_memory_gib"
// e.g. who = "model 'angiogenesis-3d'", what = "a 2000x2000x2000 grid (...)", remedy =
// "reduce model.nx/ny/nz". For a plugin that reports several problems at once.
std::string memory_problem(std::string_view who, double bytes, std::string_view what,
                           std::string_view remedy);

// Throws ConfigError with memory_problem(...) where it is not empty.
void require_memory(std::string_view who, double bytes, std::string_view what,
                    std::string_view remedy);

// Sets the cap memory_limit() reports, in bytes (0: none, the available memory applies).
// The core calls it once, when it resolves a configuration, from [run] max_memory_gib: the
// setting is process-wide, as Solvent runs one configuration per process. Plugins never
// call it; tests may.
void set_memory_cap(double bytes);

}  // namespace solvent
