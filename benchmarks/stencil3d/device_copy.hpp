#pragma once
// The measured ceiling of a memory-bound kernel: a large device-to-device copy.
namespace stencil3d_bench {

// Bytes read plus bytes written per second, median of `repeats` copies of `bytes`.
double copy_bandwidth(double bytes, int repeats);

}  // namespace stencil3d_bench
