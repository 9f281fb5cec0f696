#pragma once
// De Luca et al., Algorithm 2: CUDA has no atomic maximum for doubles, so it is built from a
// compare-and-swap loop on the 64-bit pattern. Works on shared or global memory.

namespace solvent::dense {

__device__ inline double atomic_max(double* address, double value) {
  auto* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long seen = *bits;
  unsigned long long expected;
  do {
    expected = seen;
    if (__longlong_as_double(static_cast<long long>(expected)) >= value) break;
    seen = atomicCAS(bits, expected, static_cast<unsigned long long>(__double_as_longlong(value)));
  } while (seen != expected);
  return __longlong_as_double(static_cast<long long>(seen));
}

}  // namespace solvent::dense
