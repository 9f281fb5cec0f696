// A library built as if against a future plugin ABI: only its abi_version differs.
#include <solvent/plugin.hpp>

namespace {
solvent::Schema no_parameters() { return {}; }
}  // namespace

extern "C" __attribute__((visibility("default"))) const solvent::PluginDescriptor*
solvent_plugin_descriptor() {
  static const solvent::PluginDescriptor d{999u,
                                           "9.0.0",
                                           "future-solver",
                                           solvent::PluginKind::LinearSolver,
                                           "1.0.0",
                                           "built against ABI 999",
                                           "cpu",
                                           &no_parameters,
                                           nullptr,
                                           nullptr,
                                           nullptr,
                                           nullptr,
                                           1};
  return &d;
}
