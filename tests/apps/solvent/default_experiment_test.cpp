// The default experiment (De Luca et al.'s validation run) with gepp-cpu and with lapack, the
// plugin switched by a config key only; reruns reproduce every byte.
#include "run_solvent.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

using namespace itest;

namespace {

// max over the profile of |a - b| / max |b|, per species column.
double profile_difference(const Table& a, const Table& b) {
  REQUIRE(a.header == b.header);
  REQUIRE(a.rows.size() == b.rows.size());
  double worst = 0;
  for (std::size_t c = 1; c < a.header.size(); ++c) {
    double diff = 0, scale = 0;
    for (std::size_t r = 0; r < a.rows.size(); ++r) {
      diff = std::max(diff, std::abs(a.rows[r][c] - b.rows[r][c]));
      scale = std::max(scale, std::abs(b.rows[r][c]));
    }
    if (scale > 0) worst = std::max(worst, diff / scale);
  }
  return worst;
}

}  // namespace

TEST_CASE("default experiment: gepp-cpu and lapack trajectories agree to 1e-12") {
  const auto gepp = run_dir("default-gepp-cpu"), lapack = run_dir("default-lapack");
  auto a =
      solvent("run " + config("angiogenesis-1d.toml") + " --overwrite --output " + gepp.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  auto b = solvent("run " + config("angiogenesis-1d.toml") +
                   " --set linear_solver.type=lapack --overwrite --output " + lapack.string());
  INFO(b.output);
  REQUIRE(b.exit_code == 0);

  int profiles = 0;
  for (const auto& e : fs::directory_iterator(gepp / "profiles")) {
    const auto other = lapack / "profiles" / e.path().filename();
    REQUIRE(fs::exists(other));
    INFO(e.path().filename().string());
    CHECK(profile_difference(read_csv(e.path()), read_csv(other)) <= 1e-12);
    ++profiles;
  }
  CHECK(profiles == 11);  // steps 0, 10, ..., 100

  // Observables every step: masses agree to 1e-12 relative.
  const auto oa = read_csv(gepp / "observables.csv"), ob = read_csv(lapack / "observables.csv");
  REQUIRE(oa.rows.size() == 101);
  REQUIRE(ob.rows.size() == 101);
  const auto col = std::find(oa.header.begin(), oa.header.end(), "mass_C") - oa.header.begin();
  for (std::size_t r = 0; r < oa.rows.size(); ++r)
    CHECK(std::abs(oa.rows[r][col] - ob.rows[r][col]) <= 1e-12 * std::abs(ob.rows[r][col]));
}

TEST_CASE("a rerun of the same file reproduces every output byte") {
  const auto first = run_dir("repeat-1"), second = run_dir("repeat-2");
  for (const auto& dir : {first, second}) {
    // A random initial state is rough: SBDF2 damps it (Crank-Nicolson leaves it ringing into
    // negative densities, which the projection would have to remove; see positivity tests).
    auto r = solvent("run " + config("angiogenesis-1d-lapack.toml") +
                     " --set model.M=100 --set model.initial.kind=random"
                     " --set integrator.type=imex-sbdf2 --overwrite --output " +
                     dir.string());
    REQUIRE(r.exit_code == 0);
  }
  CHECK(file_bytes(first / "observables.csv") == file_bytes(second / "observables.csv"));
  CHECK(file_bytes(first / "config.toml") == file_bytes(second / "config.toml"));
  for (const auto& e : fs::directory_iterator(first / "profiles"))
    CHECK(file_bytes(e.path()) == file_bytes(second / "profiles" / e.path().filename()));
  const auto record = file_bytes(first / "record.toml");
  for (const char* key :
       {"sha256 = ", "git_commit = ", "seed = 42", "status = 'completed'", "[seconds]",
        "solve = ", "nonlinear = ", "assembly = ", "output = ", "cpu = "})
    CHECK_MESSAGE(record.find(key) != std::string::npos, "record.toml lacks " << key);
}

TEST_CASE("discrete mass: without growth the trapezoid-rule mass of C is conserved") {
  const auto dir = run_dir("mass");
  auto r =
      solvent("run " + config("angiogenesis-1d-lapack.toml") +
              " --set model.M=101 --set model.parameters.k1=0 --set integrator.projection=false"
              " --overwrite --output " +
              dir.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto obs = read_csv(dir / "observables.csv");
  const auto col = std::find(obs.header.begin(), obs.header.end(), "mass_C") - obs.header.begin();
  const double m0 = obs.rows.front()[col];
  CHECK(m0 > 0.09);
  for (const auto& row : obs.rows) CHECK(std::abs(row[col] - m0) <= 1e-12 * m0);
  // With growth on, the mass of C must change: the check above is not vacuous.
  auto g = solvent("run " + config("angiogenesis-1d-lapack.toml") +
                   " --set model.M=101 --set integrator.projection=false --overwrite --output " +
                   dir.string());
  REQUIRE(g.exit_code == 0);
  const auto grown = read_csv(dir / "observables.csv");
  CHECK(std::abs(grown.rows.back()[col] - m0) > 1e-3);
}
