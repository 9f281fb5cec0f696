// Bad input through the command: one clear message, a non-zero exit code, nothing lost.
#include "run_solvent.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <regex>

using namespace itest;

TEST_CASE("a configuration error runs nothing and writes nothing") {
  const auto dir = run_dir("never-written");
  fs::remove_all(dir);
  auto r = solvent("run " + config("angiogenesis-1d.toml") +
                   " --set model.M=2 --set integrator.dtt=1 --output " + dir.string());
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("--set: [model] (model 'angiogenesis-1d'): key 'M' value 2 must be >= 3") !=
        std::string::npos);
  CHECK(r.output.find("unknown key 'dtt'; did you mean 'dt'?") != std::string::npos);
  CHECK(r.output.find("2 configuration errors; nothing was run") != std::string::npos);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("a diverging run says where, exits non-zero and keeps what it wrote") {
  const auto dir = run_dir("diverging");
  auto r = solvent("run " + config("angiogenesis-1d-lapack.toml") +
                   " --set model.M=50 --set integrator.projection=false --set integrator.dt=0.5"
                   " --set integrator.rannacher_steps=0 --set model.parameters.k1=100 --overwrite --output " +
                   dir.string());
  CHECK(r.exit_code == 6);
  // The core's guard stops it at the first negative density, long before it overflows.
  CHECK(r.output.find("error: the state of step 1 (t = 0.5) left the range of C (below 0): C = "
                      "-0.12006242912599542 at x = 0 (grid point 0); output up to step 0 is "
                      "kept") != std::string::npos);
  const auto obs = read_csv(dir / "observables.csv");
  CHECK(obs.rows.size() == 1);  // step 0
  const auto record = file_bytes(dir / "record.toml");
  CHECK(record.find("status = 'failed'") != std::string::npos);
}

TEST_CASE("an earlier run is never overwritten without --overwrite") {
  const auto dir = run_dir("kept");
  auto first =
      solvent("run " + config("angiogenesis-1d-lapack.toml") +
              " --set model.M=20 --set integrator.steps=3 --overwrite --output " + dir.string());
  REQUIRE(first.exit_code == 0);
  const auto before = file_bytes(dir / "observables.csv");
  auto second = solvent("run " + config("angiogenesis-1d-lapack.toml") +
                        " --set model.M=30 --set integrator.steps=3 --output " + dir.string());
  CHECK(second.exit_code == 2);
  CHECK(second.output.find("error: output directory " + dir.string() +
                           " already holds a run (record.toml); choose another with --output or "
                           "replace it with --overwrite\n1 configuration error; nothing was run") !=
        std::string::npos);
  CHECK(file_bytes(dir / "observables.csv") == before);
}

TEST_CASE("unknown subcommands, missing files and plugins are clear errors") {
  CHECK(solvent("frobnicate").exit_code == 2);
  auto missing = solvent("run /nonexistent/experiment.toml");
  CHECK(missing.exit_code == 2);
  CHECK(missing.output.find("/nonexistent/experiment.toml: no such configuration file") !=
        std::string::npos);
  auto describe = solvent("describe gepp-cpx");
  CHECK(describe.exit_code == 3);
  CHECK(describe.output.find("no plugin or section named 'gepp-cpx'; did you mean 'gepp-cpu'?") !=
        std::string::npos);
}

TEST_CASE("a section's keys are the plugin's and the core's: both suggested, both listed") {
  auto r = solvent("validate " + config("angiogenesis-1d-banded.toml") +
                   " --set linear_solver.fallbak=lapack --set linear_solver.reuse=1");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("error: --set: [linear_solver] (linear_solver 'banded'): unknown key "
                      "'fallbak'; did you mean 'fallback'?\n") != std::string::npos);
  CHECK(r.output.find("error: --set: [linear_solver] (linear_solver 'banded'): unknown key "
                      "'reuse' (valid keys: reuse_factorization, type, fallback, "
                      "max_conversion_mib, verify_residual, monitor)\n") != std::string::npos);
  // Removing the type of an optional section says how to switch it off.
  auto pc = solvent("validate " + config("angiogenesis-1d-banded.toml") +
                    " --set preconditioner.foo=1");
  CHECK(pc.exit_code == 2);
  CHECK(pc.output.find("[preconditioner]: missing string key 'type' (available: ") !=
        std::string::npos);
  CHECK(pc.output.find("; \"none\" turns the section off)\n") != std::string::npos);
}

TEST_CASE("describe covers the core's sections and keys, and says when there are none") {
  auto run = solvent("describe run");
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("[run] — a section of the core\n\nparameters (TOML section [run]):\n"
                        "  name                   string            default \"experiment\"\n") !=
        std::string::npos);
  auto output = solvent("describe output");
  CHECK(output.output.find("  precision              string            default \"float64\"  "
                           "(one of float64|float32)\n") != std::string::npos);
  auto sweep = solvent("describe sweep");
  CHECK(sweep.output.find("  mode                   string            default \"grid\"  (one "
                          "of grid|zip|random)\n") != std::string::npos);
  // A plugin's description ends with the core's keys of its section.
  auto banded = solvent("describe banded");
  CHECK(banded.exit_code == 0);
  CHECK(banded.output.find("core keys (TOML section [linear_solver], any linear_solver "
                           "plugin):\n") != std::string::npos);
  for (const char* key : {"  fallback               string            default \"\"\n",
                          "  max_conversion_mib     real              default 2048  (> 0)\n",
                          "  verify_residual        boolean           default true\n"})
    CHECK(banded.output.find(key) != std::string::npos);
  auto steady = solvent("describe steady");
  CHECK(steady.output.find("parameters (TOML section [integrator]):\n  no parameters\n") !=
        std::string::npos);
  auto misspelt = solvent("describe outptu");
  CHECK(misspelt.exit_code == 3);
  CHECK(misspelt.output.find("no plugin or section named 'outptu'; did you mean 'output'?") !=
        std::string::npos);
}

TEST_CASE("describe and plugins show what a user needs") {
  auto d = solvent("describe angiogenesis-1d");
  CHECK(d.exit_code == 0);
  CHECK(d.output.find("parameters.dC") != std::string::npos);
  CHECK(d.output.find("one of julia|second") != std::string::npos);
  auto p = solvent("plugins");
  CHECK(p.exit_code == 0);
  for (const char* name : {"angiogenesis-1d", "imex-trapezoid", "gepp-cpu", "lapack"})
    CHECK(p.output.find(name) != std::string::npos);
}

namespace {
// The number after `key = ` in record.toml's text.
double recorded(const std::string& record, const std::string& key) {
  std::smatch m;
  REQUIRE(std::regex_search(record, m, std::regex("\\n" + key + " = ([-+0-9.e]+)\\n")));
  return std::stod(m[1]);
}
}  // namespace

TEST_CASE("a run's closing summary says what the solver did, as its record does") {
  const auto steady = run_dir("summary-steady");
  auto r = solvent("run " + config("helmholtz-duct.toml") +
                   " --set model.resolution=8 --overwrite --output " + steady.string());
  REQUIRE(r.exit_code == 0);
  const auto record = file_bytes(steady / "record.toml");
  const auto expected = fmt::format(
      "run completed: model helmholtz, integrator steady, linear solver bicgstab\n"
      "  linear solve: {} iterations, relative residual {:.3g}, converged, ",
      recorded(record, "iterations"), recorded(record, "relative_residual"));
  CHECK(r.output.find(expected) != std::string::npos);
  CHECK(r.output.find("; results in " + steady.string() + "\n") != std::string::npos);

  const auto in_time = run_dir("summary-in-time");
  auto t = solvent("run " + config("angiogenesis-1d-banded.toml") +
                   " --set model.M=20 --set integrator.steps=3 --overwrite --output " +
                   in_time.string());
  REQUIRE(t.exit_code == 0);
  CHECK(t.output.find("run completed: model angiogenesis-1d, integrator imex-trapezoid, linear "
                      "solver banded\n  3 steps to t = 0.03\n  last step's linear solve: 1 "
                      "iteration, relative residual ") != std::string::npos);
  // Two Rannacher steps of two backward-Euler half steps each, then one trapezoid step.
  CHECK(t.output.find(", converged (5 solves in all)\n") != std::string::npos);
}
