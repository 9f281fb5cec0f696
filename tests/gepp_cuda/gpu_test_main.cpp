// The GPU tests of gepp-cuda and cusolver: skipped (exit code 77, which CTest reports as
// skipped) when gepp-cuda finds no CUDA device.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  auto probe = solvent::testkit::make_linear_solver("gepp-cuda");
  if (!solvent::testkit::device_available(*probe)) {
    std::puts("gepp-cuda GPU tests skipped: no CUDA device");
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
