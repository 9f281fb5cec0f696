#include "config/config_validation.hpp"
#include "loader/plugin_registry.hpp"
#include "log/logging.hpp"

#include <solvent/errors.hpp>

#include <doctest/doctest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
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
          path + ": plugin ABI version 999 does not match this Solvent's ABI version " +
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
  // library, one of another machine, a directory and a device must not reach it either.
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
  fs::create_directory(dir / "libsolvent-dir.so");
  fs::create_symlink("/dev/null", dir / "libsolvent-null.so");
  fs::create_symlink("libsolvent-loop.so", dir / "libsolvent-loop.so");

  PluginRegistry registry({dir});
  CHECK(registry.plugins().empty());
  std::map<std::string, std::string> reasons;
  for (const auto& s : registry.skipped())
    reasons[s.path.filename().string()] = s.reason.substr(s.path.string().size());
  CHECK(reasons.size() == 7);
  CHECK(reasons["libsolvent-fifo.so"] == ": a FIFO, not a regular file");
  CHECK(reasons["libsolvent-dir.so"] == ": a directory, not a regular file");
  CHECK(reasons["libsolvent-null.so"] == ": a character device, not a regular file");
  CHECK(reasons["libsolvent-loop.so"] == ": cannot be read: Too many levels of symbolic links");
  CHECK(reasons["libsolvent-text.so"] == ": not a shared library (shorter than an ELF header)");
  CHECK(reasons["libsolvent-cut.so"].starts_with(
      ": truncated (4096 bytes; its ELF header describes "));
  CHECK(reasons["libsolvent-arm.so"].starts_with(
      ": built for another architecture (ELF class 2, data 1, machine 183;"));
  fs::remove_all(dir);
}

TEST_CASE("a library that kills, hangs or throws while it is read is skipped; the scan goes on") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::weakly_canonical(MISBEHAVING_PLUGINS);
  const auto started = std::chrono::steady_clock::now();
  PluginRegistry registry({dir, fs::path(WRONG_ABI_PLUGIN).parent_path()},
                          std::chrono::milliseconds(500));
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  std::map<std::string, std::string> reasons;
  for (const auto& s : registry.skipped()) {
    REQUIRE(s.reason.starts_with(s.path.string() + ": "));
    reasons[s.path.filename().string()] = s.reason.substr(s.path.string().size() + 2);
  }
  CHECK(reasons.size() == 8);
  CHECK(reasons["libsolvent-abort-on-load.so"] == "crashed on load: SIGABRT");
  CHECK(reasons["libsolvent-segfault-on-load.so"] == "crashed on load: SIGSEGV");
  CHECK(reasons["libsolvent-hang-on-load.so"] == "did not load within 0.5 s");
#if defined(__SANITIZE_ADDRESS__)
  // Under ASan the exception cannot leave dlopen: ASan's dlopen interceptor has no unwind
  // tables, so the probe ends in std::terminate. Skipped all the same, with another reason.
  CHECK(reasons["libsolvent-throw-on-load.so"] ==
        "crashed on load: SIGABRT (terminate called after throwing an instance of 'int')");
#else
  CHECK(reasons["libsolvent-throw-on-load.so"] ==
        "threw an exception that is not a std::exception while it was loaded");
#endif
  CHECK(reasons["libsolvent-exit-on-load.so"] == "exited on load (exit status 3)");
  CHECK(reasons["libsolvent-throwing-schema.so"] ==
        "its schema() threw an exception that is not a std::exception");
  CHECK(reasons["libsolvent-unknown-device.so"] ==
        "descriptor of 'unknown-device' names device 'gpu'; a plugin runs on \"cpu\", "
        "\"cuda\" or \"any\"");
  CHECK(reasons["libsolvent-wrong-abi.so"].starts_with("plugin ABI version 999 does not match"));
  // Only a constructor that throws is not found by reading: it is a plugin like any other.
  REQUIRE(registry.plugins().size() == 1);
  const auto& p = registry.plugins().front();
  CHECK(p.path == dir / "libsolvent-throwing-constructor.so");
  CHECK(p.kind == PluginKind::LinearSolver);
  CHECK(p.name == "throwing-constructor");
  CHECK(p.version == "1.0.0");
  CHECK(p.summary == "misbehaves: throwing-constructor");
  CHECK(p.device == "cpu");
  CHECK(p.solvent_version == version_string());
  // Asking for a skipped library by its conventional name says why it is not there.
  CHECK_THROWS_WITH_AS(
      registry.find("abort-on-load", PluginKind::LinearSolver),
      ("unknown linear_solver plugin 'abort-on-load' (available: throwing-constructor); a "
       "library of that file name was skipped: " +
       (dir / "libsolvent-abort-on-load.so").string() + ": crashed on load: SIGABRT")
          .c_str(),
      PluginError);
}

TEST_CASE("a type is a name, never a path") {
  PluginRegistry registry(PluginRegistry::default_search_path());
  CHECK_THROWS_WITH_AS(registry.find("./libsolvent-lapack.so", PluginKind::LinearSolver),
                       "type './libsolvent-lapack.so' is a path; plugin types are names; add the "
                       "directory to [plugins] path",
                       PluginError);
}

TEST_CASE("[plugins] path: relative to the config's folder, written absolute, warned outside") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "solvent-config-plugin-path";
  fs::remove_all(root);
  fs::create_directories(root / "conf");
  const fs::path file = root / "conf" / "x.toml";
  std::ofstream(file) << "[plugins]\npath = [\"sub\", \"../elsewhere\"]\n"
                         "[model]\ntype = \"angiogenesis-1d\"\n"
                         "[integrator]\ntype = \"imex-trapezoid\"\n"
                         "[linear_solver]\ntype = \"lapack\"\n";
  std::ostringstream log;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(log);
  sink->set_pattern("%l: %v");
  core_logger()->sinks().push_back(sink);
  const auto cfg = resolve_config(load_config_document(file, {}));
  core_logger()->sinks().pop_back();

  const std::vector<std::string> absolute{(root / "conf" / "sub").string(),
                                          (root / "elsewhere").string()};
  CHECK(cfg.plugin_dirs() == absolute);
  const auto resolved = cfg.to_toml();
  const auto* written = resolved["plugins"]["path"].as_array();
  REQUIRE(written != nullptr);
  REQUIRE(written->size() == 2);
  CHECK(written->at(0).value<std::string>() == absolute[0]);
  CHECK(written->at(1).value<std::string>() == absolute[1]);
  CHECK(log.str() ==
        "warning: " + file.string() + ":2:8: [plugins] path adds " + absolute[1] +
            ", outside this configuration's folder and outside Solvent's (" +
            solvent_root().string() +
            "): loading a plugin runs its code, so trust this configuration as you would trust "
            "code\n");
  fs::remove_all(root);
}

TEST_CASE("the root above the core's folder, for a build tree and a multiarch install") {
  CHECK(install_root("/work/build/lib", "lib") == "/work/build");
  CHECK(install_root("/usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu") == "/usr");
  CHECK(install_root("/opt/solvent/lib64", "lib64") == "/opt/solvent");
  // A build tree of a multiarch configuration keeps the core in lib/ all the same.
  CHECK(install_root("/work/build/lib", "lib/x86_64-linux-gnu") == "/work/build");
  CHECK(install_root("/usr/lib", "") == "/usr");
}
