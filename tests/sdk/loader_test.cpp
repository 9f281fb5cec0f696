// Plugin versioning and name conflicts, on fixture libraries built from
// fixture_plugin.cpp into folders of their own (never the shared plugin folder).
#include <doctest/doctest.h>

#include "loader/plugin_registry.hpp"

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
  // Asked for by name, the error says why the library of that name is not there.
  CHECK(error_of([&] { registry.find("sdk-wrong-abi", PluginKind::LinearSolver); }) ==
        "unknown linear_solver plugin 'sdk-wrong-abi' (available: none); a library of that file "
        "name was skipped: " +
            expected);
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

TEST_CASE("two plugins of one name: the first on the search path is used, the other shadowed") {
  const auto a = library("twin-a", "sdk-twin");
  const auto b = library("twin-b", "sdk-twin");
  for (const auto& [first, second] : {std::pair{a, b}, std::pair{b, a}}) {
    PluginRegistry registry({first.parent_path(), second.parent_path()});
    REQUIRE(registry.plugins().size() == 1);
    CHECK(registry.plugins().front().path == first);
    REQUIRE(registry.shadowed().size() == 1);
    CHECK(registry.shadowed().front().plugin.path == second);
    CHECK(registry.shadowed().front().by == first);
    CHECK(registry.find("sdk-twin", PluginKind::LinearSolver).path == first);
    CHECK(std::string(registry.find("sdk-twin", PluginKind::LinearSolver).descriptor->summary) ==
          (first == a ? "twin a" : "twin b"));
  }
  // A path never chooses one: types are names.
  PluginRegistry registry({fixtures / "twin-a", fixtures / "twin-b"});
  CHECK(error_of([&] { registry.find(b.string(), PluginKind::LinearSolver); }) ==
        "type '" + b.string() +
            "' is a path; plugin types are names; add the directory to [plugins] path");
  // Of the right name but another kind, it is not found.
  CHECK(error_of([&] { registry.find("sdk-twin", PluginKind::Model); }) ==
        "unknown model plugin 'sdk-twin' (available: none)");
}

TEST_CASE("a plugin found once stays at its address while more are loaded") {
  // The config keeps one reference per role (model, integrator, solver, fallback): a later
  // lookup must not move an earlier one.
  PluginRegistry registry({fixtures / "twin-a", fixtures / "newer-minor"});
  const auto& first = registry.find("sdk-twin", PluginKind::LinearSolver);
  const auto* first_address = &first;
  registry.find("sdk-newer-minor", PluginKind::LinearSolver);
  CHECK(&first == first_address);
  CHECK(std::string(first.descriptor->summary) == "twin a");
  CHECK(&registry.find("sdk-twin", PluginKind::LinearSolver) == first_address);
}
