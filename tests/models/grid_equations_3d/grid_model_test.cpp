// grid-equations-3d: the discretisation error of every case falls at second order.
#include <solvent_test/grid_system.hpp>
#include <solvent_test/quoted_figures.hpp>

#include <cmath>
#include <string>

using solvent::test::Settings;

namespace {

double order_between(const Settings& base, std::int64_t coarse, std::int64_t fine) {
  double err[2];
  const std::int64_t n[2] = {coarse, fine};
  for (int l = 0; l < 2; ++l) {
    Settings s = base;
    s["n1"] = n[l];
    s["n2"] = n[l];
    s["n3"] = n[l];
    const auto r = solvent::test::solve_grid(s, "matm",
                                             {{"tolerance", 1e-12},
                                              {"max_iterations", std::int64_t(5000)},
                                              {"threads", std::int64_t(1)}});
    REQUIRE(r.stats.converged);
    err[l] = r.error_max;
  }
  const double ratio = double(fine - 1) / double(coarse - 1);
  return std::log(err[0] / err[1]) / std::log(ratio);
}

}  // namespace

TEST_CASE("poisson on the box: second order") {
  const double p = order_between({{"problem", std::string("poisson")}}, 9, 17);
  CHECK(p > 1.9);
  CHECK(p < 2.2);
}

TEST_CASE("poisson in the basin (inactive nodes outside): second order") {
  const double p = order_between(
      {{"problem", std::string("poisson")}, {"domain", std::string("basin")}}, 17, 33);
  CHECK(p > 1.8);
}

TEST_CASE("convection-diffusion, every velocity field: second order") {
  for (const char* v : {"uniform", "shear", "rotating"}) {
    INFO("velocity " << v);
    const double p = order_between({{"problem", std::string("convection-diffusion")},
                                    {"velocity", std::string(v)},
                                    {"peclet", 20.0}},
                                   9, 17);
    CHECK(p > 1.8);
    CHECK(p < 2.3);
  }
}

TEST_CASE("the operator: inactive nodes have c0 = 0 and no coupling reaches them") {
  auto model =
      solvent::testkit::make_model("grid-equations-3d", {{"n1", std::int64_t(13)},
                                                         {"n2", std::int64_t(11)},
                                                         {"n3", std::int64_t(9)},
                                                         {"domain", std::string("basin")}});
  const auto& a = std::get<solvent::Stencil7<double>>(*model->linear()->matrix());
  CHECK(a.n1 == 13);
  CHECK(a.n2 == 11);
  CHECK(a.n3 == 9);
  std::size_t active = 0;
  const std::ptrdiff_t off[7] = {0, -1, 1, -13, 13, -143, 143};
  for (std::size_t m = 0; m < a.size(); ++m) {
    if (a.c[0][m] == 0.0) {
      for (int d = 1; d < 7; ++d) CHECK(a.c[d][m] == 0.0);
      continue;
    }
    ++active;
    for (int d = 1; d < 7; ++d)
      if (a.c[d][m] != 0.0) CHECK(a.c[0][std::size_t(std::ptrdiff_t(m) + off[d])] > 0.0);
  }
  CHECK(active > 0);
  CHECK(active < 11 * 9 * 7);  // the basin is smaller than the box interior
}

// config/matm-convection.toml's comment gives the cell Peclet number of its own grid and
// Peclet number (speed h_max / (2 mu)), which says whether central differences keep A
// diagonally dominant: the model, made from the config's values, states it as a fact.
TEST_CASE("config/matm-convection.toml quotes the cell Peclet number of its grid") {
  const std::string config = SOURCE_DIR "/config/matm-convection.toml";
  const auto integer = [&](const std::string& key) {
    return std::int64_t(std::stoll(solvent::test::quoted_figure(config, "\n" + key + " = ")));
  };
  const auto real = [&](const std::string& key) {
    return std::stod(solvent::test::quoted_figure(config, "\n" + key + " = "));
  };
  CHECK(solvent::test::quoted_text(config, "\nproblem = \"", "\"") == "convection-diffusion");
  CHECK(solvent::test::quoted_text(config, "\nvelocity = \"", "\"") == "rotating");
  CHECK(solvent::test::quoted_text(config, "\ndomain = \"", "\"") == "basin");
  auto model = solvent::testkit::make_model("grid-equations-3d",
                                            {{"n1", integer("n1")},
                                             {"n2", integer("n2")},
                                             {"n3", integer("n3")},
                                             {"problem", std::string("convection-diffusion")},
                                             {"velocity", std::string("rotating")},
                                             {"domain", std::string("basin")},
                                             {"peclet", real("peclet")},
                                             {"mu", real("mu")}});
  std::string cell_peclet;
  for (const auto& [key, value] : model->facts())
    if (key == "cell_peclet") cell_peclet = value;
  REQUIRE(!cell_peclet.empty());
  const auto quoted = solvent::test::quoted_figure(config, "cell Peclet ");
  CHECK_MESSAGE(solvent::test::written_like(std::stod(cell_peclet), quoted) == quoted,
                "matm-convection.toml quotes a cell Peclet number of "
                    << quoted << "; the model states " << cell_peclet);
}

TEST_CASE("a grid dimension below 3 is a configuration error") {
  CHECK_THROWS_AS(solvent::testkit::make_model("grid-equations-3d", {{"n2", std::int64_t(2)}}),
                  solvent::ConfigError);
}
