// The main of every test that needs a GPU: it asks the plugin named by
// SOLVENT_TEST_DEVICE_PROBE (set by solvent_add_test's CUDA_PROBE; a linear solver or a
// preconditioner) for its device and, without one, exits 77, which CTest reports as skipped
// — so machines without a GPU (CI) skip the test with a message instead of failing it.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <solvent/testkit.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

namespace {

bool probe_finds_device(const std::string& name) {
  namespace tk = solvent::testkit;
  const auto pcs = tk::installed(solvent::PluginKind::Preconditioner);
  if (std::find(pcs.begin(), pcs.end(), name) != pcs.end())
    return tk::device_available(*tk::make_preconditioner(name));
  return tk::device_available(*tk::make_linear_solver(name));
}

}  // namespace

int main(int argc, char** argv) {
  if (!probe_finds_device(SOLVENT_TEST_DEVICE_PROBE)) {
    std::printf("skipped: %s finds no CUDA device\n", SOLVENT_TEST_DEVICE_PROBE);
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
