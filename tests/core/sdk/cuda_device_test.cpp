// The SDK's device layer (Solvent::cuda) on any machine: without a GPU the probe throws
// DeviceUnavailable with one line naming the caller; with one it names the device and
// refuses an ordinal past the last. A failed status becomes a SolverError naming the
// caller and the call, with CUDA's own text.
#include <solvent/device/cuda.hpp>
#include <solvent/errors.hpp>

#include <doctest/doctest.h>

#include <string>

namespace {
bool has_device() {
  try {
    solvent::cuda::current_device("probe");
    return true;
  } catch (const solvent::DeviceUnavailable& e) {
    CHECK(std::string(e.what()).rfind("probe: no CUDA device: ", 0) == 0);
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
    return false;
  }
}
}  // namespace

TEST_CASE("the device probe either names a device or says why there is none") {
  if (!has_device()) {
    MESSAGE("no CUDA device here: the probe's refusal was checked");
    CHECK_THROWS_AS(solvent::cuda::select_device(0, "probe"), solvent::DeviceUnavailable);
    return;
  }
  CHECK_FALSE(solvent::cuda::current_device("probe").empty());
  CHECK(solvent::cuda::select_device(0, "probe") == solvent::cuda::current_device("probe"));
  CHECK_THROWS_WITH_AS(solvent::cuda::select_device(4096, "probe"),
                       doctest::Contains("probe: no CUDA device 4096: only "),
                       solvent::DeviceUnavailable);
}

TEST_CASE("a failed status is a SolverError: context, call, CUDA's text") {
  CHECK_NOTHROW(solvent::cuda::check(0, "ctx", "cudaMemcpy"));
  // 2 is cudaErrorMemoryAllocation in every CUDA runtime.
  CHECK_THROWS_WITH_AS(solvent::cuda::check(2, "ctx", "cudaMalloc"),
                       "ctx: cudaMalloc: out of memory", solvent::SolverError);
}
