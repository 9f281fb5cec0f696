#include "plugin_registry.hpp"

#include <solvent/errors.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <sys/stat.h>

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

TEST_CASE("files that are not a loadable library are skipped with the reason, never mapped") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "solvent-loader-bad-files";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A FIFO would block the dynamic loader forever; a text file, a cut-off copy of a real
  // library and one of another machine must not reach it either.
  REQUIRE(mkfifo((dir / "libsolvent-fifo.so").c_str(), 0600) == 0);
  std::ofstream(dir / "libsolvent-text.so") << "not a library\n";
  const fs::path real = WRONG_ABI_PLUGIN;
  std::string bytes(fs::file_size(real), '\0');
  std::ifstream(real, std::ios::binary).read(bytes.data(), std::streamsize(bytes.size()));
  std::ofstream(dir / "libsolvent-cut.so", std::ios::binary).write(bytes.data(), 4096);
  std::string other = bytes;
  other[18] = char(183);  // EM_AARCH64
  other[19] = 0;
  std::ofstream(dir / "libsolvent-arm.so", std::ios::binary).write(other.data(), 64);

  PluginRegistry registry({dir});
  CHECK(registry.plugins().empty());
  std::map<std::string, std::string> reasons;
  for (const auto& s : registry.skipped())
    reasons[s.path.filename().string()] = s.reason.substr(s.path.string().size());
  CHECK(reasons["libsolvent-fifo.so"] == ": not a regular file (skipped without opening it)");
  CHECK(reasons["libsolvent-text.so"] ==
        ": not a shared library (shorter than an ELF header)");
  CHECK(reasons["libsolvent-cut.so"].starts_with(": truncated (4096 bytes; its ELF header describes "));
  CHECK(reasons["libsolvent-arm.so"].starts_with(": built for another architecture (ELF class 2, data 1, machine 183;"));
  fs::remove_all(dir);
}
