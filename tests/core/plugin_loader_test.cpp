#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace solvent;

TEST_CASE("a plugin built against another ABI is refused, naming both versions") {
  const std::string path = WRONG_ABI_PLUGIN;
  try {
    load_plugin_library(path);
    FAIL("the wrong-ABI plugin was accepted");
  } catch (const PluginError& e) {
    CHECK(std::string(e.what()) ==
          path +
              ": plugin ABI version 999 does not match this Solvent's ABI version " +
              std::to_string(plugin_abi_version) + "; rebuild the plugin against Solvent " +
              version_string());
  }
}

TEST_CASE("the registry lists a skipped library with the reason") {
  PluginRegistry registry({std::filesystem::path(WRONG_ABI_PLUGIN).parent_path()});
  CHECK(registry.plugins().empty());
  REQUIRE(registry.skipped().size() == 1);
  CHECK(registry.skipped()[0].reason.find("plugin ABI version 999") != std::string::npos);
}

TEST_CASE("a missing plugin is an error that lists what exists and the nearest name") {
  PluginRegistry registry(PluginRegistry::default_search_path());
  try {
    registry.find("gepp-cpx", PluginKind::LinearSolver);
    FAIL("found a plugin that does not exist");
  } catch (const PluginError& e) {
    const std::string msg = e.what();
    CHECK(
        msg.rfind("unknown linear_solver plugin 'gepp-cpx'; did you mean 'gepp-cpu'? (available: ",
                  0) == 0);
    CHECK(msg.find("lapack") != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(registry.find("gepp-cpu", PluginKind::Model),
                       doctest::Contains("unknown model plugin 'gepp-cpu'"), PluginError);
}

TEST_CASE("objects keep their plugin library loaded after the registry is gone") {
  std::shared_ptr<LinearSolver> solver;
  {
    PluginRegistry registry(PluginRegistry::default_search_path());
    PluginContext ctx;
    ctx.params.set("reuse_factorization", false);
    solver = create_linear_solver(registry.find("lapack", PluginKind::LinearSolver), ctx);
  }
  DenseMatrix<double> a(2, 2);
  a(0, 0) = 2;
  a(1, 1) = 4;
  solver->setup(std::make_shared<const Operator>(a));
  std::vector<double> b{2, 4}, x(2);
  solver->solve(std::span<const double>(b), std::span<double>(x));
  CHECK(x[0] == 1.0);
  CHECK(x[1] == 1.0);
}
