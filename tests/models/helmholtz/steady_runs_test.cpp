// End to end: `solvent run` on the shipped helmholtz and matrix-file configs with the
// steady integrator and the bicgstab (and bicgstab-l) plugins, reading the run record it
// writes.
#include <solvent_test/quoted_figures.hpp>

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

Outcome run_solvent(const std::string& args) {
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

// A record's string value without its quotes: '32867' -> 32867.
std::string unquoted(const std::string& value) {
  return value.size() > 1 && value.front() == '\'' ? value.substr(1, value.size() - 2) : value;
}

std::string output_dir(const std::string& run) { return (fs::path(WORK_DIR) / run).string(); }

// `solvent run ARGS --output WORK_DIR/RUN`, which must end with exit code `code`.
void run_into(const std::string& run, const std::string& args, int code = 0) {
  const auto r = run_solvent("run " + args + " --output " + output_dir(run));
  INFO(r.output);
  REQUIRE(r.exit_code == code);
}

std::string quoted(const std::string& file, const std::string& before) {
  return solvent::test::quoted_figure(fs::path(SOURCE_DIR) / file, before);
}

}  // namespace

TEST_CASE("cabin config at resolution 15, bicgstab-l to 1e-12: the updated residual stays true") {
  // Before BiCGSTAB(l) refreshed its updated residual (reliable updates) and stopped
  // replacing it inside a cycle, this solve drifted: the updated residual read below the
  // tolerance while the true one grew, and after 382 cycles it stopped (stagnation) with a
  // best iterate whose true relative residual was 1.4e4. Now it converges in 37 cycles.
  run_into("cabin-15",
           "config/krylov-cabin-bicgstab-l.toml --set model.resolution=15 "
           "--set linear_solver.bicgstab-l.tolerance=1e-12");
  CHECK(record_value("cabin-15", "converged") == "true");
  CHECK(std::stod(record_value("cabin-15", "relative_residual")) <= 1e-12);
  CHECK(std::stoll(record_value("cabin-15", "iterations")) <= 60);
  // docs/krylov.md quotes the cycles and the residual.
  const std::string before = "whose true relative residual was 1.4e4, against ";
  const auto cycles = quoted("docs/krylov.md", before);
  CHECK(cycles == record_value("cabin-15", "iterations"));
  // ... and in its table's row for l = 8 (the config's own), one rank now.
  CHECK(quoted("docs/krylov.md", "\n  | 8 | stagnation at 382, returned 1.4e4 / ") ==
        record_value("cabin-15", "iterations"));
  const auto residual = quoted("docs/krylov.md", before + cycles + " cycles to ");
  CHECK(solvent::test::written_like(std::stod(record_value("cabin-15", "relative_residual")),
                                    residual) == residual);
  const std::string replacements = record_value("cabin-15", "last_residual_replacements");
  REQUIRE(replacements.size() > 2);  // quoted: '6'
  CHECK(std::stoll(replacements.substr(1)) >= 2);
}

TEST_CASE("cabin config at resolution 15 to 1e-12: the one-rank cycles docs/krylov.md quotes") {
  for (const std::string l : {"2", "4"}) {
    const auto run = "cabin-15-l" + l;
    const auto r = run_solvent(
        "run config/krylov-cabin-bicgstab-l.toml --set model.resolution=15 "
        "--set linear_solver.bicgstab-l.tolerance=1e-12 --set linear_solver.bicgstab-l.l=" +
        l + " --output " + output_dir(run));
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    // The table's row for l, column "1 rank before / now".
    const std::string row = "\n  | " + l + " | ";
    const auto before = quoted("docs/krylov.md", row);
    CHECK(quoted("docs/krylov.md", row + before + " / ") == record_value(run, "iterations"));
  }
}

TEST_CASE("helmholtz duct config: bicgstab converges, plane-wave error as expected") {
  const auto r = run_solvent("run config/helmholtz-duct.toml --set model.resolution=16 --output " +
                             output_dir("duct"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(record_value("duct", "converged") == "true");
  const double error = std::stod(record_value("duct", "relative_l2_error"));
  CHECK(error > 0.01);
  CHECK(error < 0.06);
}

TEST_CASE("helmholtz duct config at its own resolution: the error and iterations the docs quote") {
  const auto r = run_solvent("run config/helmholtz-duct.toml --output " + output_dir("duct-32"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto written = solvent::test::written_like(
      std::stod(record_value("duct-32", "relative_l2_error")),
      quoted("config/helmholtz-duct.toml", "the relative L2 error of the P1 solution\n# ("));
  CHECK(quoted("config/helmholtz-duct.toml", "the relative L2 error of the P1 solution\n# (") == written);
  CHECK(quoted("docs/models/helmholtz.md", "to 1e-9 gives a relative L2 error of ") == written);
  CHECK(quoted("docs/models/helmholtz.md", written + " after ") == record_value("duct-32", "iterations"));
}

TEST_CASE("helmholtz cabin config: the unknowns and iterations its comment quotes") {
  const auto r = run_solvent("run config/helmholtz-cabin.toml --output " + output_dir("cabin"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(record_value("cabin", "converged") == "true");
  CHECK(quoted("config/helmholtz-cabin.toml", "per metre (") ==
        unquoted(record_value("cabin", "nodes")));
  CHECK(quoted("config/helmholtz-cabin.toml", "at most 1000\n# iterations (") ==
        record_value("cabin", "iterations"));
}

TEST_CASE("helmholtz cabin config at 200 Hz: BiCGSTAB as slow as its comment says") {
  // Twice the frequency, near the weakly damped cavity's resonances: the config's 1000
  // iterations end unconverged; allowed more, the same solve converges.
  run_into("cabin-200Hz",
           "config/helmholtz-cabin.toml --set model.frequency=200 "
           "--set linear_solver.bicgstab.max_iterations=4000");
  CHECK(record_value("cabin-200Hz", "converged") == "true");
  std::ifstream history(fs::path(WORK_DIR) / "cabin-200Hz" / "residual_history.csv");
  double at_1000 = -1;
  for (std::string line; std::getline(history, line);)
    if (line.starts_with("1000,")) at_1000 = std::stod(line.substr(5));
  REQUIRE(at_1000 > 0);
  const std::string config = "config/helmholtz-cabin.toml";
  const auto figure = quoted(config, "slows BiCGSTAB down: ");
  CHECK_MESSAGE(solvent::test::written_like(at_1000, figure) == figure,
                "helmholtz-cabin.toml quotes " << figure << "; after 1000 iterations the run is at "
                                               << at_1000);
  CHECK(quoted(config, figure + " after those 1000, converged after ") ==
        record_value("cabin-200Hz", "iterations"));
}

TEST_CASE("krylov cabin config: the unknowns and non-zeros its comment quotes") {
  // One cycle builds and records the system; models-helmholtz-krylov-cabin runs the solve.
  run_into("krylov-cabin",
           "config/krylov-cabin-bicgstab-l.toml --set linear_solver.bicgstab-l.max_iterations=1",
           6);
  const std::string config = "config/krylov-cabin-bicgstab-l.toml";
  CHECK(quoted(config, "40 cells per metre (") == unquoted(record_value("krylov-cabin", "nodes")));
  CHECK(quoted(config, "unknowns,\n# ") == unquoted(record_value("krylov-cabin", "nonzeros")));
}

TEST_CASE("matrix-file config: the known solution comes back") {
  const auto r = run_solvent("run config/matrix-file.toml --output " + output_dir("matrix-file"));
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(std::stod(record_value("matrix-file", "relative_error")) < 1e-7);
  CHECK(quoted("config/matrix-file.toml", "(a duct, ") ==
        unquoted(record_value("matrix-file", "rows")));
}

TEST_CASE("matrix-file config with a malformed matrix: exit code 4 and file:line") {
  const auto r = run_solvent(
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
  const auto r = run_solvent(
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
  const auto r =
      run_solvent("run config/matm-poisson.toml --set linear_solver.type=lapack --output " +
                  output_dir("dense-grid"));
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("nothing was run") != std::string::npos);
  CHECK(r.output.find("error: --set: linear solver 'lapack' takes dense storage: the stencil7 "
                      "system of 274625 unknowns would take 575400.5 MiB as a dense matrix, more "
                      "than [linear_solver] max_conversion_mib = 2048; choose a solver that keeps "
                      "it sparse, or raise the limit") != std::string::npos);
}
