// Bad input through the command: one clear message, a non-zero exit code, nothing lost.
#include "run_solvent.hpp"

#include <doctest/doctest.h>

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
                   " --set model.parameters.k1=100 --overwrite --output " +
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
  CHECK(second.exit_code == 1);
  CHECK(second.output.find("already holds a run (record.toml)") != std::string::npos);
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
  CHECK(describe.output.find("no plugin named 'gepp-cpx'; did you mean 'gepp-cpu'?") !=
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
