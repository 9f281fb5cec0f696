// The SDK's device layer (Solvent::cuda) on any machine: without a GPU the probe throws
// DeviceUnavailable with one line naming the caller; with one it names the device and
// refuses an ordinal past the last. A failed status becomes a SolverError naming the
// caller and the call, with CUDA's own text.
#include <solvent/device/cuda.hpp>
#include <solvent/device/device_array.hpp>
#include <solvent/errors.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

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

TEST_CASE("a copy past the staging size goes up and down bit for bit, its tail chunk too") {
  if (!has_device()) return;
  // 300 MiB and 24 bytes: staged through the page-locked buffers, ten chunks and a short one.
  std::vector<double> up((std::size_t(300) << 17) + 3);
  for (std::size_t i = 0; i < up.size(); ++i) up[i] = 0.5 + double(i) * 1e-3;
  solvent::cuda::DeviceArray<double> d(up.data(), up.size());
  std::vector<double> down(up.size(), -1.0);
  d.download(down.data(), down.size());
  CHECK(down == up);
  // A pinned destination takes the plain copy: the same bits.
  solvent::cuda::PinnedRegion pinned(down.data(), down.size() * sizeof(double));
  std::fill(down.begin(), down.end(), -1.0);
  d.download(down.data(), down.size());
  solvent::cuda::synchronize();  // a copy into pinned memory returns before it is done
  CHECK(down == up);
}

TEST_CASE("staged default-stream copies go up and down bit for bit, again and on a new thread") {
  if (!has_device()) return;
  // 64 MiB (the first staged size), then 128 MiB and 8 bytes through the buffers the thread
  // kept, then a copy from a second thread, which makes buffers of its own.
  auto round_trip = [](std::size_t bytes) {
    const std::size_t n = bytes / sizeof(double);
    std::vector<double> up(n);
    for (std::size_t i = 0; i < n; ++i) up[i] = double(bytes % 1013) + double(i) * 1e-3;
    solvent::cuda::DeviceArray<double> d(up.data(), n);
    std::vector<double> down(n, -1.0);
    d.download(down.data(), n);
    return down == up;
  };
  CHECK(round_trip(std::size_t(64) << 20));
  CHECK(round_trip((std::size_t(128) << 20) + 8));
  bool other = false;
  std::thread([&] { other = round_trip((std::size_t(96) << 20) + 16); }).join();
  CHECK(other);
}

TEST_CASE("one StagedCopies moves many arrays of any size, each bit for bit") {
  if (!has_device()) return;
  solvent::cuda::StagedCopies staged("ctx");
  // Below one chunk, one chunk and 8 bytes, two chunks exactly, five and a part, and nothing:
  // every buffer reused from the copy before, in both directions.
  for (std::size_t bytes : {std::size_t(24), (std::size_t(32) << 20) + 8, std::size_t(64) << 20,
                            (std::size_t(165) << 20) + 40, std::size_t(0)}) {
    CAPTURE(bytes);
    const std::size_t n = bytes / sizeof(double);
    std::vector<double> up(n);
    for (std::size_t i = 0; i < n; ++i) up[i] = double(bytes % 977) + double(i) * 1e-3;
    solvent::cuda::DeviceArray<double> d(std::max<std::size_t>(n, 1));
    staged.to_device(d.data(), up.data(), bytes);
    std::vector<double> down(n, -1.0);
    staged.to_host(down.data(), d.data(), bytes);
    CHECK(down == up);
    // What arrived on the device is what a plain copy reads back.
    std::fill(down.begin(), down.end(), -1.0);
    d.download(down.data(), n);
    CHECK(down == up);
  }
}
