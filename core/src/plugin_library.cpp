#include "plugin_library.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

namespace solvent {

PluginLibrary load_plugin_library(const std::filesystem::path& path) {
  PluginLibrary lib;
  lib.path = path;
  try {
    // RTLD_NODELETE: a plugin's code stays mapped until the process ends, even after its
    // last object is gone — libraries such as OpenBLAS leave threads running that would
    // crash after an unmap.
    lib.library = std::make_shared<boost::dll::shared_library>(
        path, static_cast<boost::dll::load_mode::type>(RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE));
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("{}: cannot be loaded: {}", path.string(), e.what()));
  }
  if (!lib.library->has("solvent_plugin_descriptor"))
    throw PluginError(fmt::format("{}: not a Solvent plugin (no solvent_plugin_descriptor symbol)",
                                  path.string()));
  auto& entry = lib.library->get<const PluginDescriptor*()>("solvent_plugin_descriptor");
  lib.descriptor = entry();
  const auto* d = lib.descriptor;
  if (d == nullptr)
    throw PluginError(fmt::format("{}: its descriptor function returned null", path.string()));
  // Only abi_version may be read before this check: the rest may have another layout.
  if (d->abi_version != plugin_abi_version)
    throw PluginError(fmt::format(
        "{}: plugin ABI version {} does not match this Solvent's ABI version {}; rebuild the "
        "plugin against Solvent {}",
        path.string(), d->abi_version, plugin_abi_version, version_string()));
  if (d->name == nullptr || d->schema == nullptr || d->version == nullptr)
    throw PluginError(
        fmt::format("{}: incomplete descriptor (name, version or schema missing)", path.string()));
  const bool has_factory = (d->kind == PluginKind::Model && d->make_model) ||
                           (d->kind == PluginKind::Integrator && d->make_integrator) ||
                           (d->kind == PluginKind::LinearSolver && d->make_linear_solver) ||
                           (d->kind == PluginKind::Preconditioner && d->make_preconditioner);
  if (!has_factory)
    throw PluginError(
        fmt::format("{}: descriptor of '{}' has no factory for its kind", path.string(), d->name));
  return lib;
}

namespace {
template <class T>
std::shared_ptr<T> keep_library_loaded(std::unique_ptr<T> obj,
                                       std::shared_ptr<boost::dll::shared_library> library) {
  return std::shared_ptr<T>(obj.release(), [library](T* p) { delete p; });
}
}  // namespace

std::shared_ptr<Model> create_model(const PluginLibrary& lib, const PluginContext& ctx) {
  return keep_library_loaded(lib.descriptor->make_model(ctx), lib.library);
}
std::shared_ptr<Integrator> create_integrator(const PluginLibrary& lib, const PluginContext& ctx) {
  return keep_library_loaded(lib.descriptor->make_integrator(ctx), lib.library);
}
std::shared_ptr<LinearSolver> create_linear_solver(const PluginLibrary& lib,
                                                   const PluginContext& ctx) {
  return keep_library_loaded(lib.descriptor->make_linear_solver(ctx), lib.library);
}
std::shared_ptr<Preconditioner> create_preconditioner(const PluginLibrary& lib,
                                                      const PluginContext& ctx) {
  return keep_library_loaded(lib.descriptor->make_preconditioner(ctx), lib.library);
}

}  // namespace solvent
