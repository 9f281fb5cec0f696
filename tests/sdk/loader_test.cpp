// Plugin versioning and name conflicts, on fixture libraries built from
// fixture_plugin.cpp into folders of their own (never the shared plugin folder).
#include <doctest/doctest.h>

#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <string>

namespace fs = std::filesystem;
using solvent::PluginKind;
using solvent::PluginRegistry;

namespace {

const fs::path fixtures = SDK_FIXTURE_DIR;

fs::path library(const char* folder, const char* name) {
  return fs::weakly_canonical(fixtures / folder / (std::string("libsolvent-") + name + ".so"));
}

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const solvent::PluginError& e) {
    return e.what();
  }
  return "no PluginError";
}

}  // namespace

TEST_CASE("a plugin built against another ABI is refused, naming both versions") {
  const auto path = library("wrong-abi", "sdk-wrong-abi");
  const std::string expected =
      path.string() + ": plugin ABI version 999 does not match this Solvent's ABI version " +
      std::to_string(solvent::plugin_abi_version) + "; rebuild the plugin against Solvent " +
      SOLVENT_VERSION;
  CHECK(error_of([&] { solvent::load_plugin_library(path); }) == expected);

  // On the search path it is skipped with the same reason, and never offered by name.
  PluginRegistry registry({fixtures / "wrong-abi"});
  CHECK(registry.plugins().empty());
  REQUIRE(registry.skipped().size() == 1);
  CHECK(registry.skipped().front().reason == expected);
  CHECK(error_of([&] { registry.find("sdk-wrong-abi", PluginKind::LinearSolver); }) ==
        "unknown linear_solver plugin 'sdk-wrong-abi' (available: none)");
  // Named by path, it is refused with the same message.
  CHECK(error_of([&] { registry.find(path.string(), PluginKind::LinearSolver); }) == expected);
}

TEST_CASE("a plugin built against a newer minor Solvent version of the same ABI is accepted") {
  PluginRegistry registry({fixtures / "newer-minor"});
  CHECK(registry.skipped().empty());
  const auto& lib = registry.find("sdk-newer-minor", PluginKind::LinearSolver);
  CHECK(std::string(lib.descriptor->solvent_version) == SDK_NEWER_MINOR_VERSION);
  CHECK(std::string(lib.descriptor->solvent_version) != SOLVENT_VERSION);
  CHECK(lib.descriptor->abi_version == solvent::plugin_abi_version);
  solvent::PluginContext ctx;
  auto solver = solvent::create_linear_solver(lib, ctx);
  CHECK(solver->accepts({solvent::OperatorKind::Dense, solvent::ScalarKind::Real}));
}

TEST_CASE("two plugins of one name: the conflict names both paths, a path chooses one") {
  const auto a = library("twin-a", "sdk-twin");
  const auto b = library("twin-b", "sdk-twin");
  PluginRegistry registry({fixtures / "twin-a", fixtures / "twin-b"});
  REQUIRE(registry.plugins().size() == 2);
  CHECK(error_of([&] { registry.find("sdk-twin", PluginKind::LinearSolver); }) ==
        "linear_solver plugin 'sdk-twin' is provided by 2 libraries:\n  " + a.string() + "\n  " +
            b.string() + "\nchoose one by giving its path as type");

  const auto& chosen_b = registry.find(b.string(), PluginKind::LinearSolver);
  CHECK(std::string(chosen_b.descriptor->summary) == "twin b");
  const auto& chosen_a = registry.find(a.string(), PluginKind::LinearSolver);
  CHECK(std::string(chosen_a.descriptor->summary) == "twin a");
  // A path to the wrong kind is refused.
  CHECK(error_of([&] { registry.find(a.string(), PluginKind::Model); }) ==
        a.string() + " is a linear_solver plugin, not a model plugin");
}

TEST_CASE("plugins chosen by path off the search path stay valid while more are added") {
  // The config keeps one reference per role (model, integrator, solver, fallback): a later
  // lookup must not move an earlier one.
  PluginRegistry registry({});
  const auto& first =
      registry.find(library("twin-a", "sdk-twin").string(), PluginKind::LinearSolver);
  const auto* first_address = &first;
  registry.find(library("twin-b", "sdk-twin").string(), PluginKind::LinearSolver);
  registry.find(library("newer-minor", "sdk-newer-minor").string(), PluginKind::LinearSolver);
  CHECK(&first == first_address);
  CHECK(std::string(first.descriptor->summary) == "twin a");
  CHECK(&registry.find(library("twin-a", "sdk-twin").string(), PluginKind::LinearSolver) ==
        first_address);
}
