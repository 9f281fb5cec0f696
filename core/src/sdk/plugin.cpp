// The out-of-line part of <solvent/plugin.hpp>: in the SDK, since plugins may call it too.
#include <solvent/plugin.hpp>

namespace solvent {

std::string_view to_string(PluginKind k) {
  switch (k) {
    case PluginKind::Model:
      return "model";
    case PluginKind::Integrator:
      return "integrator";
    case PluginKind::LinearSolver:
      return "linear_solver";
    case PluginKind::Preconditioner:
      return "preconditioner";
  }
  return "?";
}

}  // namespace solvent
