#pragma once
// Timing on a CUDA device for the benchmarks, callable from plain C++ (target
// solvent-test-device, built where CUDA is): CUDA-event medians, the device's measured copy
// bandwidth — the ceiling every memory-bound floor is computed from — and a description of
// the device for the results tables.
#include <cstddef>
#include <functional>
#include <string>

namespace solvent::test {

// Median over `reps` of the device time (ms) of what `launch` enqueues, each timed with its
// own pair of CUDA events, after `warmup` untimed runs.
double median_device_ms(const std::function<void()>& launch, int reps, int warmup = 3);

// A device-to-device cudaMemcpy of `bytes`, counted as bytes read + bytes written: GB/s,
// median of 10. Throws DeviceUnavailable without a device.
double copy_bandwidth_gbs(std::size_t bytes);

// "NAME, N SMs, M GiB, L2 K MiB, driver D, runtime R" of the current device.
std::string device_description();

}  // namespace solvent::test
