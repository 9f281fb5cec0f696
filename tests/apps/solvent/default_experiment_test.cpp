// The default experiment (De Luca et al.'s validation run) with gepp-cpu and with lapack, the
// plugin switched by a config key only; reruns reproduce every byte.
#include "run_solvent.hpp"

#include <solvent_test/quoted_figures.hpp>

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

// The total variation of C on [0.05, 0.15] (around the initial jump at x = 0.1) in a profile:
// 0.0231 for a converged run at t = 1 (dt = 1e-4), 0.63 when Crank-Nicolson rings.
double ringing(const Table& profile) {
  REQUIRE(profile.header.size() > 1);
  REQUIRE(profile.header[1] == "C");
  double tv = 0;
  for (std::size_t r = 1; r < profile.rows.size(); ++r)
    if (profile.rows[r - 1][0] >= 0.05 && profile.rows[r][0] <= 0.15)
      tv += std::abs(profile.rows[r][1] - profile.rows[r - 1][1]);
  return tv;
}

// The number docs/models/angiogenesis-1d.md quotes right after `before`.
std::string quoted(const std::string& before) {
  return solvent::test::quoted_figure(
      fs::path(CONFIG_DIR) / ".." / "docs" / "models" / "angiogenesis-1d.md", before);
}

// The last value of an observable, written as `like` is.
std::string final_value(const fs::path& dir, const std::string& column, const std::string& like) {
  const auto obs = read_csv(dir / "observables.csv");
  const auto col = std::find(obs.header.begin(), obs.header.end(), column) - obs.header.begin();
  REQUIRE(col < static_cast<std::ptrdiff_t>(obs.header.size()));
  return solvent::test::written_like(obs.rows.back()[col], like);
}

}  // namespace

TEST_CASE("the final max_C the model's page quotes for the shipped configs") {
  const auto banded = run_dir("quoted-banded"), cnab2 = run_dir("quoted-cnab2");
  for (const auto& [file, dir] : {std::pair{"angiogenesis-1d-banded.toml", banded},
                                  std::pair{"angiogenesis-1d-cnab2.toml", cnab2}}) {
    const auto r = itest::solvent("run " + config(file) + " --overwrite --output " + dir.string());
    REQUIRE(r.exit_code == 0);
  }
  const auto trapezoid = quoted("max_C "), second_order = quoted("ends at max_C ");
  CHECK(final_value(banded, "max_C", trapezoid) == trapezoid);
  CHECK(final_value(cnab2, "max_C", second_order) == second_order);
}

TEST_CASE("the steps the README quotes for the adaptive config") {
  const auto dir = run_dir("quoted-adaptive");
  const auto r = itest::solvent("run " + config("angiogenesis-1d-adaptive.toml") +
                                " --overwrite --output " + dir.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto steps =
      solvent::test::quoted_figure(fs::path(CONFIG_DIR) / ".." / "README.md", "solver: it takes ");
  CHECK(r.output.find("\n  " + steps + " steps to t = 1\n") != std::string::npos);
}

TEST_CASE("default experiment: gepp-cpu and lapack trajectories agree to 1e-12") {
  const auto gepp = run_dir("default-gepp-cpu"), lapack = run_dir("default-lapack");
  auto a = itest::solvent("run " + config("angiogenesis-1d.toml") + " --overwrite --output " +
                          gepp.string());
  INFO(a.output);
  REQUIRE(a.exit_code == 0);
  auto b =
      itest::solvent("run " + config("angiogenesis-1d.toml") +
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

  // The main experiment does not ring: no warning, and at t = 1 the neighbourhood of the
  // initial jump is as smooth as the converged solution's (which `make run` plots).
  CHECK(a.output.find("diffusion number") == std::string::npos);
  const double smooth = ringing(read_csv(gepp / "profiles" / "step_00000100.csv"));
  MESSAGE("total variation of C on [0.05, 0.15] at t = 1: " << smooth);
  CHECK(smooth < 0.03);

  // Observables every step: masses agree to 1e-12 relative.
  const auto oa = read_csv(gepp / "observables.csv"), ob = read_csv(lapack / "observables.csv");
  REQUIRE(oa.rows.size() == 101);
  REQUIRE(ob.rows.size() == 101);
  const auto col = std::find(oa.header.begin(), oa.header.end(), "mass_C") - oa.header.begin();
  for (std::size_t r = 0; r < oa.rows.size(); ++r)
    CHECK(std::abs(oa.rows[r][col] - ob.rows[r][col]) <= 1e-12 * std::abs(ob.rows[r][col]));
}

TEST_CASE("the ringing demonstration rings and says so; its cure is the main experiment's") {
  const auto dir = run_dir("ringing");
  const auto r = itest::solvent("run " + config("angiogenesis-1d-ringing.toml") +
                                " --overwrite --output " + dir.string());
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const auto file = fs::path(CONFIG_DIR) / "angiogenesis-1d-ringing.toml";
  const auto number = solvent::test::quoted_figure(file, "(dC dt/h^2 = ");
  CHECK_MESSAGE(
      r.output.find("diffusion number dt/2 max|Lin_ii| = " + number + " > 1") != std::string::npos,
      "the config's comment quotes a diffusion number of " << number);
  // The same number where the validation run's scheme is described (same M and dt), and the
  // ratio to forward Euler's limit (dC dt/h^2 = 1/2) they round to two figures.
  const auto root = fs::path(CONFIG_DIR) / "..";
  const auto adaptive = fs::path(CONFIG_DIR) / "angiogenesis-1d-adaptive.toml";
  CHECK(quoted("the paper's dt is lost from our copy of its text; dC dt/h^2 = ") == number);
  CHECK(solvent::test::quoted_figure(adaptive, "(dt dC / h^2 = ") == number);
  const double ratio = 2 * std::stod(number);
  const double digit = std::pow(10.0, std::floor(std::log10(ratio)) - 1);
  const auto times = solvent::test::written_like(std::round(ratio / digit) * digit, "0");
  CHECK(solvent::test::quoted_figure(root / "README.md", "its Crank-Nicolson steps are about ") ==
        times);
  CHECK(solvent::test::quoted_figure(adaptive, "its Crank-Nicolson steps, about ") == times);
  CHECK(r.output.find("Cure: rannacher_steps = 2") != std::string::npos);
  CHECK(ringing(read_csv(dir / "profiles" / "step_00000100.csv")) > 0.5);

  // The comment's promise for the banded solver, factored once: gepp-cpu's trajectory, to
  // round-off, whose bound it states.
  const auto gepp = run_dir("ringing-gepp-cpu");
  const auto g = itest::solvent("run " + config("angiogenesis-1d-ringing.toml") +
                                " --set linear_solver.type=gepp-cpu"
                                " --set linear_solver.gepp-cpu.reuse_factorization=true"
                                " --overwrite --output " +
                                gepp.string());
  INFO(g.output);
  REQUIRE(g.exit_code == 0);
  double worst = 0;
  int profiles = 0;
  for (const auto& e : fs::directory_iterator(gepp / "profiles")) {
    const auto other = dir / "profiles" / e.path().filename();
    REQUIRE(fs::exists(other));
    worst = std::max(worst, profile_difference(read_csv(other), read_csv(e.path())));
    ++profiles;
  }
  CHECK(profiles == 11);  // steps 0, 10, ..., 100
  MESSAGE("banded against gepp-cpu on the ringing config: " << worst);
  solvent::test::check_quoted_bound(file, "the same trajectory as gepp-cpu within ", worst);
}

TEST_CASE("a rerun of the same file reproduces every output byte") {
  const auto first = run_dir("repeat-1"), second = run_dir("repeat-2");
  for (const auto& dir : {first, second}) {
    // A random initial state is rough: SBDF2 damps it (Crank-Nicolson leaves it ringing into
    // negative densities, which the projection would have to remove; see positivity tests).
    auto r = itest::solvent("run " + config("angiogenesis-1d-lapack.toml") +
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
       {"sha256 = ", "git_commit = ", "licence = 'BSD-3-Clause'", "seed = 42", "status = 'completed'", "[seconds]",
        "solve = ", "nonlinear = ", "assembly = ", "output = ", "cpu = "})
    CHECK_MESSAGE(record.find(key) != std::string::npos, "record.toml lacks " << key);
}

TEST_CASE("discrete mass: without growth the trapezoid-rule mass of C is conserved") {
  const auto dir = run_dir("mass");
  auto r = itest::solvent(
      "run " + config("angiogenesis-1d-lapack.toml") +
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
  auto g = itest::solvent(
      "run " + config("angiogenesis-1d-lapack.toml") +
      " --set model.M=101 --set integrator.projection=false --overwrite --output " + dir.string());
  REQUIRE(g.exit_code == 0);
  const auto grown = read_csv(dir / "observables.csv");
  CHECK(std::abs(grown.rows.back()[col] - m0) > 1e-3);
}
