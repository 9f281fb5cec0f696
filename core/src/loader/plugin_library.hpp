#pragma once
// One plugin library on disk: its descriptor read in a child process (listing), or the
// library loaded into this process and its descriptor checked against the ABI (use).
#include <solvent/plugin.hpp>

#include <boost/dll/shared_library.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace solvent {

struct PluginLibrary {
  std::filesystem::path path;
  std::shared_ptr<boost::dll::shared_library> library;  // never unloaded while in use
  const PluginDescriptor* descriptor = nullptr;
};

// A usable library's descriptor, copied out of the child process that read it.
struct PluginInfo {
  std::filesystem::path path;
  PluginKind kind = PluginKind::Model;
  std::string name, version, summary, device, solvent_version;
  std::uint32_t max_ranks = 1;  // PluginDescriptor::max_ranks: 0 for any number
};

struct SkippedLibrary {
  std::filesystem::path path;
  std::string reason;  // starts with the path
};

// Reads the descriptor of each library in `paths` without running any of their code in
// this process: files that are not regular files or not ELF libraries of this machine are
// refused without being opened by the loader, the others are loaded by a child process,
// which sends back each descriptor (and checks that its schema can be built). A library
// whose loading kills that child (abort, a segfault, an exception out of a static
// initialiser) or does not finish within `timeout` is skipped with the reason, and the
// child is restarted for the libraries after it. One result per path, in order. Results
// are kept for the process's lifetime while a file is unchanged (timeouts excepted).
std::vector<std::variant<PluginInfo, SkippedLibrary>> probe_plugin_libraries(
    const std::vector<std::filesystem::path>& paths, std::chrono::milliseconds timeout);

// Loads `path` into this process and reads its descriptor. Throws PluginError saying why
// the file is not a usable plugin (not loadable, no descriptor, ABI mismatch, incomplete
// descriptor).
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
