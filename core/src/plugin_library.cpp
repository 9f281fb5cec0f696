#include "plugin_library.hpp"

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <dlfcn.h>

#include <array>
#include <cstdint>
#include <fstream>

namespace solvent {

namespace {
// What can be told from the file before the dynamic loader maps it: the loader blocks
// forever on a FIFO and may die of SIGBUS on a truncated file, so only a regular file with a
// complete ELF header of this process's class, byte order and machine is handed to it. The
// header's own section-table offset bounds the file size, which catches a cut-off library.
bool read_elf_header(const std::filesystem::path& path, unsigned char (&h)[64]) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<bool>(in.read(reinterpret_cast<char*>(h), sizeof h));
}

unsigned machine_of(const unsigned char (&h)[64]) { return h[18] | (h[19] << 8); }

void check_library_file(const std::filesystem::path& path) {
  static const auto own = [] {
    std::array<unsigned, 3> id{2, 1, 62};  // ELF64, little-endian, x86-64
    unsigned char h[64] = {};
    if (read_elf_header("/proc/self/exe", h)) id = {h[4], h[5], machine_of(h)};
    return id;
  }();
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec) throw PluginError(fmt::format("{}: cannot be read: {}", path.string(), ec.message()));
  if (!fs::is_regular_file(status))
    throw PluginError(fmt::format("{}: not a regular file (skipped without opening it)",
                                  path.string()));
  const auto size = fs::file_size(path, ec);
  unsigned char h[64] = {};
  if (ec || !read_elf_header(path, h))
    throw PluginError(fmt::format("{}: not a shared library (shorter than an ELF header)",
                                  path.string()));
  if (h[0] != 0x7f || h[1] != 'E' || h[2] != 'L' || h[3] != 'F')
    throw PluginError(fmt::format("{}: not a shared library (no ELF header)", path.string()));
  const unsigned machine = machine_of(h);
  if (h[4] != own[0] || h[5] != own[1] || machine != own[2])
    throw PluginError(fmt::format(
        "{}: built for another architecture (ELF class {}, data {}, machine {}; this process: "
        "class {}, data {}, machine {})",
        path.string(), int(h[4]), int(h[5]), machine, own[0], own[1], own[2]));
  std::uint64_t section_table = 0;
  for (int i = 7; i >= 0; --i) section_table = (section_table << 8) | h[40 + i];
  const std::uint64_t section_bytes = std::uint64_t(h[58] | (h[59] << 8)) * (h[60] | (h[61] << 8));
  if (section_table + section_bytes > size)
    throw PluginError(fmt::format("{}: truncated ({} bytes; its ELF header describes {})",
                                  path.string(), size, section_table + section_bytes));
}
}  // namespace

PluginLibrary load_plugin_library(const std::filesystem::path& path) {
  check_library_file(path);
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
