#pragma once
// Counter-based random numbers: a uniform in [0, 1) is a pure function of (seed, step,
// tip, stream), so the CPU and CUDA paths draw the same numbers in any thread order and a
// resumed run draws what the uninterrupted one would have. The mixing function is
// SplitMix64's finaliser (Steele, Lea & Flood 2014), applied to each key word in turn.
#include <solvent/device/host_device.hpp>

#include <cstdint>

namespace solvent::angiogenesis_3d {

enum class Draw : std::uint64_t { Move = 1, Branch = 2, BranchSite = 3 };

SOLVENT_HD inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

SOLVENT_HD inline double uniform(std::uint64_t seed, std::int64_t step, std::int32_t tip,
                                 Draw stream) {
  std::uint64_t z = mix64(seed);
  z = mix64(z ^ static_cast<std::uint64_t>(step));
  z = mix64(z ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(tip)));
  z = mix64(z ^ static_cast<std::uint64_t>(stream));
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

}  // namespace solvent::angiogenesis_3d
