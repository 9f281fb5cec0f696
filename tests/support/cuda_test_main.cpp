// The main of every test that needs a GPU: it asks the plugin named by
// SOLVENT_TEST_DEVICE_PROBE (set by solvent_add_test's CUDA_PROBE) for its device and, without
// one, exits 77, which CTest reports as skipped — so machines without a GPU (CI) skip the
// test with a message instead of failing it.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include <cstdio>

int main(int argc, char** argv) {
  auto probe = solvent::testkit::make_linear_solver(SOLVENT_TEST_DEVICE_PROBE);
  if (!solvent::testkit::device_available(*probe)) {
    std::printf("skipped: %s finds no CUDA device\n", SOLVENT_TEST_DEVICE_PROBE);
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
