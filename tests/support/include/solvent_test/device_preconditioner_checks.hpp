#pragma once
// Shared by the tests of the CUDA preconditioners (jacobi-cuda, ilu0-cuda): z of one apply on
// device vectors, and a CUDA preconditioner against its CPU twin. Link solvent-test-device.
#include "device_vector.hpp"
#include "preconditioner_checks.hpp"
#include "reference_kernels.hpp"

#include <solvent/testkit.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace solvent::test {

// z = M^{-1} r with r uploaded to and z read back from device vectors (a "cuda"
// preconditioner).
template <class T>
std::vector<T> applied_on_device(const Preconditioner& pc, const std::vector<T>& r) {
  DeviceVector<T> dr(r), dz(std::vector<T>(r.size()));
  pc.apply(std::span<const T>(dr.span()), dz.span());
  return dz.download();
}

// The CUDA preconditioner `device` against its CPU twin `host`: both set up with `a`, then
// refreshed with each operator of `refreshes` in turn (new values on a's pattern, or another
// pattern, which is a setup). After each, for a random r of the operator's size, the device
// z — out of place, and in place (r and z one device vector) — must be the host z within
// `tolerance`, relative to its largest entry.
template <class T>
void check_device_matches_host(const std::string& device, const std::string& host,
                               const std::shared_ptr<const Operator>& a,
                               const std::vector<std::shared_ptr<const Operator>>& refreshes,
                               double tolerance = 1e-12) {
  using test::max_relative_difference;
  auto cpu = testkit::make_preconditioner(host);
  auto gpu = testkit::make_preconditioner(device);
  cpu->setup(a);
  gpu->setup(a);
  std::uint64_t seed = 1;
  auto compare = [&](const char* after, const Operator& op) {
    CAPTURE(after);
    const auto r = test::random_vector<T>(rows_of(op), seed++);
    const auto expected = applied(*cpu, r);
    CHECK(max_relative_difference(applied_on_device(*gpu, r), expected) <= tolerance);
    DeviceVector<T> in_place(r);
    gpu->apply(std::span<const T>(in_place.span()), in_place.span());
    CHECK(max_relative_difference(in_place.download(), expected) <= tolerance);
  };
  compare("setup", *a);
  for (const auto& b : refreshes) {
    cpu->refresh(b);
    gpu->refresh(b);
    compare("refresh", *b);
  }
}

}  // namespace solvent::test
