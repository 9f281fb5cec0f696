#pragma once
// One plugin library on disk: loaded, its descriptor read and checked against the ABI.
#include <solvent/plugin.hpp>

#include <boost/dll/shared_library.hpp>

#include <filesystem>
#include <memory>
#include <string>

namespace solvent {

struct PluginLibrary {
  std::filesystem::path path;
  std::shared_ptr<boost::dll::shared_library> library;  // never unloaded while in use
  const PluginDescriptor* descriptor = nullptr;
};

// Loads `path` and reads its descriptor. Throws PluginError saying why the file is not a
// usable plugin (not loadable, no descriptor, ABI mismatch, incomplete descriptor).
PluginLibrary load_plugin_library(const std::filesystem::path& path);

// Objects made by a plugin hold a reference to its library, so the code of their
// virtual functions and destructor stays mapped for as long as they live.
std::shared_ptr<Model> create_model(const PluginLibrary& lib, const PluginContext& ctx);
std::shared_ptr<Integrator> create_integrator(const PluginLibrary& lib, const PluginContext& ctx);
std::shared_ptr<LinearSolver> create_linear_solver(const PluginLibrary& lib,
                                                   const PluginContext& ctx);
std::shared_ptr<Preconditioner> create_preconditioner(const PluginLibrary& lib,
                                                      const PluginContext& ctx);

}  // namespace solvent
