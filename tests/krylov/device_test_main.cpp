// The CUDA tests: skipped (exit code 77, reported by CTest as skipped) without a device.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  auto probe = solvent::testkit::make_linear_solver("bicgstab-cuda");
  if (!solvent::testkit::device_available(*probe)) {
    std::puts("krylov CUDA tests skipped: no CUDA device");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
