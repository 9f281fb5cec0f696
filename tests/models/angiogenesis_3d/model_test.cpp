// The model plugin: the defaults of docs/models/angiogenesis-3d.md, list checks, the parameter
// extension.
#include <solvent_test/angiogenesis_3d_runs.hpp>

#include <solvent/memory.hpp>
#include <solvent_family_angiogenesis_3d/parameters.hpp>

using solvent::test::Settings;

namespace {

const solvent::angiogenesis_3d::Parameters& parameters_of(solvent::Model& m) {
  const auto* p = solvent::family<solvent::angiogenesis_3d::ParametersFamily>(m);
  REQUIRE(p != nullptr);
  return *p;
}

}  // namespace

TEST_CASE("defaults are those of docs/models/angiogenesis-3d.md") {
  auto m = solvent::testkit::make_model("angiogenesis-3d");
  const auto& p = parameters_of(*m);
  CHECK(p.nx == 201);
  CHECK(p.h == doctest::Approx(0.005));
  CHECK(p.D == 0.00035);
  CHECK(p.chi0 == 0.38);
  CHECK(p.alpha == 0.6);
  CHECK(p.rho == 0.34);
  CHECK(p.beta == 0.05);
  CHECK(p.gamma == 0.1);
  CHECK(p.eta == 0.1);
  CHECK(p.tumour == solvent::angiogenesis_3d::Tumour::Planar);
  CHECK(p.tip_ny == 3);
  CHECK(p.tip_nz == 3);
  CHECK(p.tip_y[0] == 0.25);
  CHECK(p.tip_z[2] == 0.75);
  CHECK(p.branch_age == 0.5);
  CHECK(p.density_factor == 2.5);
  CHECK(p.c_threshold[0] == 0.25);
  CHECK(p.c_threshold[3] == 0.68);
  CHECK(p.branch_probability[1] == 0.2);
  CHECK(p.branch_probability[4] == 1.0);
  CHECK(p.stop_x == 0.95);
  CHECK(m->extension("angiogenesis-3d/2") == nullptr);
}

TEST_CASE("the spherical tumour's centre is given as fractions of the box") {
  auto m = solvent::testkit::make_model("angiogenesis-3d",
                                        {{"nx", std::int64_t(11)},
                                         {"ny", std::int64_t(21)},
                                         {"nz", std::int64_t(6)},
                                         {"tumour", std::string("spherical")},
                                         {"tumour_centre", std::vector<double>{1.0, 0.5, 0.5}}});
  const auto& p = parameters_of(*m);
  CHECK(p.tumour == solvent::angiogenesis_3d::Tumour::Spherical);
  CHECK(p.tumour_centre[1] == doctest::Approx(1.0));   // (21 - 1) * 0.1 / 2
  CHECK(p.tumour_centre[2] == doctest::Approx(0.25));  // (6 - 1) * 0.1 / 2
}

TEST_CASE("lists of the wrong length are refused with one message each") {
  CHECK_THROWS_WITH_AS(
      solvent::testkit::make_model("angiogenesis-3d",
                                   {{"branching.c_thresholds", std::vector<double>{0.5, 0.2}},
                                    {"branching.probabilities", std::vector<double>{0.1}}}),
      "model.branching.c_thresholds: need 4 ascending values, got 2\n"
      "model.branching.probabilities: need 5 values (one per band), got 1",
      solvent::ConfigError);
}

TEST_CASE("the integrator refuses a model without the parameter block") {
  struct Other : solvent::Model {};
  Other other;
  auto i = solvent::testkit::make_integrator("explicit-stencil3d");
  std::string why;
  CHECK_FALSE(i->accepts(other, why));
  CHECK(why == "the model does not offer the 'angiogenesis-3d/1' parameter block");
  CHECK_FALSE(i->needs_linear_solver());
}

TEST_CASE("a grid larger than the memory cap is refused before anything is allocated") {
  // 101^3 nodes at 60 bytes each is 59.0 MiB: over a 50 MiB cap, under a 60 MiB one.
  const Settings grid{
      {"nx", std::int64_t(101)}, {"ny", std::int64_t(101)}, {"nz", std::int64_t(101)}};
  solvent::set_memory_cap(50.0 * 1024 * 1024);
  CHECK_THROWS_WITH_AS(
      solvent::testkit::make_model("angiogenesis-3d", grid),
      "model 'angiogenesis-3d' needs an estimated 59.0 MiB for a 101x101x101 grid (60 bytes a "
      "node: f and c, the vessel arrays, and a field file's copy), more than the 50.0 MiB "
      "allowed by [run] max_memory_gib; reduce model.nx/ny/nz or raise [run] max_memory_gib",
      solvent::ConfigError);
  solvent::set_memory_cap(60.0 * 1024 * 1024);
  CHECK(parameters_of(*solvent::testkit::make_model("angiogenesis-3d", grid)).nx == 101);
  solvent::set_memory_cap(0.0);
}

TEST_CASE("a grid past the 32-bit node index is refused, whatever the memory") {
  solvent::set_memory_cap(1e30);
  CHECK_THROWS_WITH_AS(
      solvent::testkit::make_model(
          "angiogenesis-3d",
          {{"nx", std::int64_t(2000)}, {"ny", std::int64_t(2000)}, {"nz", std::int64_t(2000)}}),
      "model 'angiogenesis-3d': a 2000x2000x2000 grid has 8000000000 nodes, more than the "
      "2147483647 its 32-bit node indices can number; reduce model.nx/ny/nz",
      solvent::ConfigError);
  solvent::set_memory_cap(0.0);
}
