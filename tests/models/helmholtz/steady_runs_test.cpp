// End to end: `solvent run` on the shipped helmholtz and matrix-file configs with the
// steady integrator and the bicgstab plugin, reading the run record it writes.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string output;
};

Outcome solvent(const std::string& args) {
  const fs::path dir = fs::path(WORK_DIR);
  fs::create_directories(dir);
  const fs::path log = dir / "command.log";
  const std::string cmd = "cd " + std::string(SOURCE_DIR) + " && " + SOLVENT_EXE + " " + args +
                          " --no-progress --overwrite > " + log.string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream f(log);
  std::stringstream s;
  s << f.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, s.str()};
}

// The value of `key = value` in a run record (first occurrence).
std::string record_value(const std::string& run, const std::string& key) {
  std::ifstream f(fs::path(WORK_DIR) / run / "record.toml");
  for (std::string line; std::getline(f, line);) {
    const auto start = line.find_first_not_of(' ');
    if (start != std::string::npos && line.compare(start, key.size() + 3, key + " = ") == 0)
      return line.substr(start + key.size() + 3);
  }
  return "";
}

std::string output_dir(const std::string& run) { return (fs::path(WORK_DIR) / run).string(); }

// The figure a file of the source tree quotes right after `before`, as written there.
std::string quoted(const std::string& file, const std::string& before) {
  std::ifstream f(fs::path(SOURCE_DIR) / file);
  std::stringstream s;
  s << f.rdbuf();
  const auto text = s.str();
  const auto at = text.find(before);
  REQUIRE_MESSAGE(at != std::string::npos, file << " lacks: " << before);
  const auto from = at + before.size();
  return text.substr(from, text.find_first_not_of("0123456789.e-", from) - from);
}

}  // namespace

TEST_CASE("helmholtz duct config: bicgstab converges, plane-wave error as expected") {
  const auto r = solvent("run config/helmholtz-duct.toml --set model.resolution=16 --output " +
                         output_dir("duct"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(record_value("duct", "converged") == "true");
  const double error = std::stod(record_value("duct", "relative_l2_error"));
  CHECK(error > 0.01);
  CHECK(error < 0.06);
}

TEST_CASE("helmholtz duct config at its own resolution: the error and iterations the docs quote") {
  const auto r = solvent("run config/helmholtz-duct.toml --output " + output_dir("duct-32"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  char error[16];
  std::snprintf(error, sizeof error, "%.1e", std::stod(record_value("duct-32", "relative_l2_error")));
  // printf writes 1.2e-02; the docs write 1.2e-2.
  std::string written = error;
  written.erase(written.find("e-0") + 2, 1);
  CHECK(quoted("config/helmholtz-duct.toml", "the relative L2 error of the P1 solution\n# (") == written);
  CHECK(quoted("docs/models/helmholtz.md", "to 1e-9 gives a relative L2 error of ") == written);
  CHECK(quoted("docs/models/helmholtz.md", written + " after ") == record_value("duct-32", "iterations"));
}

TEST_CASE("matrix-file config: the known solution comes back") {
  const auto r = solvent("run config/matrix-file.toml --output " + output_dir("matrix-file"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(std::stod(record_value("matrix-file", "relative_error")) < 1e-7);
}

TEST_CASE("matrix-file config with a malformed matrix: exit code 4 and file:line") {
  const auto r = solvent(
      "run config/matrix-file.toml --set "
      "model.matrix=tests/core/sdk/matrix_market/data/bad-row.mtx "
      "--output " +
      output_dir("bad"));
  CHECK(r.exit_code == 4);
  CHECK(r.output.find(
            "tests/core/sdk/matrix_market/data/bad-row.mtx:4: row index 4 out of range 1..3") !=
        std::string::npos);
}

TEST_CASE("a conversion beyond max_conversion_mib: a configuration error (exit 2), recorded") {
  const auto r = solvent(
      "run config/matrix-file.toml --set linear_solver.type=lapack "
      "--set linear_solver.max_conversion_mib=0.0001 --output " +
      output_dir("conversion-guard"));
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("error: converting the operator to dense storage for the linear solver "
                      "would take ") != std::string::npos);
  CHECK(r.output.find("nothing was run") == std::string::npos);
  CHECK(record_value("conversion-guard", "status") == "'failed'");
}

TEST_CASE("a dense solver on a grid whose dense matrix passes the limit is refused unassembled") {
  // The grid model knows its size before assembly, so the combination check (the one
  // `validate` runs) finds what the guard would, before any output exists.
  const auto r = solvent("run config/matm-poisson.toml --set linear_solver.type=lapack --output " +
                         output_dir("dense-grid"));
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("nothing was run") != std::string::npos);
  CHECK(r.output.find("error: --set: linear solver 'lapack' takes dense storage: the stencil7 "
                      "system of 274625 unknowns would take 575400.5 MiB as a dense matrix, more "
                      "than [linear_solver] max_conversion_mib = 2048; choose a solver that keeps "
                      "it sparse, or raise the limit") != std::string::npos);
}
