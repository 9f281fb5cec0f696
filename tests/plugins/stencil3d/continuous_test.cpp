// The continuous mode of angiogenesis-3d (n, f and c at every node) on the CPU: second order
// under refinement, mass of n kept by diffusion, n >= 0 where every weight is, c falling and
// f moving towards beta / gamma at every node, the step limit refused and the guard on n,
// and a resumed run equal to the uninterrupted one byte for byte.
#include <solvent_test/angiogenesis_3d_runs.hpp>
#include <solvent_test/quoted_figures.hpp>

#include <solvent/errors.hpp>
#include <solvent_family_angiogenesis_3d/grid.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace solvent::test;
using solvent::stencil3d::SimulationState;

namespace {

// The trapezoid rule over the box: weight 1/2 per axis on a face node.
double mass(const std::vector<double>& v, const solvent::angiogenesis_3d::Grid& g, double h) {
  double sum = 0.0;
  for (std::int32_t k = 0; k < g.nz; ++k)
    for (std::int32_t j = 0; j < g.ny; ++j)
      for (std::int32_t i = 0; i < g.nx; ++i) {
        double w = h * h * h;
        w *= (i == 0 || i == g.nx - 1) ? 0.5 : 1.0;
        w *= (j == 0 || j == g.ny - 1) ? 0.5 : 1.0;
        w *= (k == 0 || k == g.nz - 1) ? 0.5 : 1.0;
        sum += w * v[static_cast<std::size_t>(g.index(i, j, k))];
      }
  return sum;
}

// The largest difference of a field on grid `fine` (2 (n - 1) + 1 nodes on x, and on y and
// z unless `flat`) from the one on `coarse` at the coarse grid's nodes.
double difference(const SimulationState& coarse, const SimulationState& fine,
                  std::vector<double> SimulationState::*field, bool flat) {
  const auto gc = solvent::angiogenesis_3d::grid_of(coarse.p);
  const auto gf = solvent::angiogenesis_3d::grid_of(fine.p);
  const std::int32_t r = flat ? 1 : 2;
  double most = 0.0;
  for (std::int32_t k = 0; k < gc.nz; ++k)
    for (std::int32_t j = 0; j < gc.ny; ++j)
      for (std::int32_t i = 0; i < gc.nx; ++i) {
        const double a = (coarse.*field)[static_cast<std::size_t>(gc.index(i, j, k))];
        const double b = (fine.*field)[static_cast<std::size_t>(gf.index(2 * i, r * j, r * k))];
        most = std::max(most, std::abs(a - b));
      }
  return most;
}

// Runs `model` on the grids of `sizes` nodes an axis (x; y and z too unless `flat`) to
// t = 0.05 with k = 0.8 h^2, so that the scheme's error O(h^2 + k) is O(h^2) where the
// scheme is second order, and returns the observed order of each field from the last three
// grids: log2 of the ratio of the differences of successive grids.
std::vector<double> observed_orders(Settings model, const std::vector<std::int64_t>& sizes,
                                    bool flat, const std::string& name) {
  const double t = 0.05;
  std::vector<SimulationState> runs;
  for (const std::int64_t n : sizes) {
    const std::int64_t steps = 16 * ((n - 1) / 16) * ((n - 1) / 16);
    const double dt = t / static_cast<double>(steps);
    model["nx"] = n;
    model["ny"] = model["nz"] = flat ? std::int64_t(5) : n;
    const auto dir = fresh_dir(name + std::to_string(n));
    run(model, integrator(steps, {{"dt", dt}}), dir);
    runs.push_back(load_checkpoint(dir, model, dt, 7));
  }
  std::vector<double> orders;
  const std::size_t last = runs.size() - 1;
  for (const auto& [field, label] :
       {std::pair{&SimulationState::n, "n"}, {&SimulationState::f, "f"},
        {&SimulationState::c, "c"}}) {
    const double e1 = difference(runs[last - 2], runs[last - 1], field, flat);
    const double e2 = difference(runs[last - 1], runs[last], field, flat);
    orders.push_back(std::log2(e1 / e2));
    MESSAGE(name << " " << std::string(label) << ": differences " << e1 << ", " << e2 << ", observed order "
                 << orders.back());
  }
  return orders;
}

}  // namespace

TEST_CASE("second order in h (k ~ h^2) where the data meet the mirror faces' condition") {
  // The mirror ghosts impose n_x = 0 on a face and read c_x = f_x = 0 there. With the
  // tumour's TAF narrow (c_width 0.05) the gradients of c and f are negligible on every face
  // n reaches, and the scheme converges at second order on every axis.
  auto model = continuous_model();
  model["parameters.c_width"] = 0.05;
  const auto orders = observed_orders(model, {17, 33, 65}, false, "continuous-refine-");
  solvent::test::check_quoted_list(MODEL_DOC, "(observed order ", orders);
  for (const double order : orders) {
    CHECK(order > 1.8);
    CHECK(order < 2.2);
  }
}

TEST_CASE("first order where c_x is not 0 on the face the cells start on (the paper's data)") {
  // With c = exp(-(1 - x)^2 / 0.45) the cells at x = 0 feel c_x = 0.48 there; the continuous
  // no-flux condition D n_x = n (chi c_x + rho f_x) is then not the ghosts' n_x = 0, and the
  // error falls like h only. The solution depends on x alone: 5 nodes on y and z suffice.
  auto model = continuous_model();
  model["tumour"] = std::string("planar");
  const auto orders = observed_orders(model, {65, 129, 257}, true, "continuous-paper-");
  solvent::test::check_quoted_list(MODEL_DOC, "they fall like h (", orders);
  CHECK(orders[0] > 0.7);
  CHECK(orders[0] < 1.3);
}

TEST_CASE("diffusion keeps the mass of n; n >= 0; c falls and f moves towards beta / gamma") {
  // Without taxis every weight of the n update is kD/h^2 or 1 - 6kD/h^2 >= 0 and the mirror
  // ghosts make the trapezoid mass of n a sum the update keeps.
  auto model = continuous_model(21);
  model["parameters.chi0"] = 0.0;
  model["parameters.rho"] = 0.0;
  const auto dir = fresh_dir("continuous-mass");
  run(model, integrator(300, {{"dt", 0.002}}), dir);
  const auto end = load_checkpoint(dir, model, 0.002, 7);
  const auto& p = end.p;
  const auto start = solvent::stencil3d::initial_state(p, 0.002, 7, 1);
  const auto g = solvent::angiogenesis_3d::grid_of(p);
  const double m0 = mass(start.n, g, p.h), m1 = mass(end.n, g, p.h);
  MESSAGE("mass of n: " << m0 << " at the start, " << m1 << " after 300 steps");
  // Round-off (the order of the sums is the engine's): the page states the bound.
  solvent::test::check_quoted_bound(MODEL_DOC, "300 steps: equal within ", std::abs(m1 - m0) / m0);
  // The cells have spread: the run did change n.
  CHECK(*std::max_element(end.n.begin(), end.n.end()) <
        0.9 * *std::max_element(start.n.begin(), start.n.end()));
  const double target = p.beta / p.gamma;
  for (std::size_t m = 0; m < end.n.size(); ++m) {
    REQUIRE(end.n[m] >= 0.0);
    REQUIRE(end.c[m] <= start.c[m]);
    REQUIRE(end.c[m] >= 0.0);
    REQUIRE(end.f[m] >= std::min(start.f[m], target));
    REQUIRE(end.f[m] <= std::max(start.f[m], target));
  }
}

TEST_CASE("with taxis weaker than diffusion over a cell n stays >= 0 and moves up the gradients") {
  const auto dir = fresh_dir("continuous-taxis");
  const auto model = continuous_model(17);
  run(model, integrator(200, {{"dt", 0.002}}), dir);
  const auto end = load_checkpoint(dir, model, 0.002, 7);
  const auto start = solvent::stencil3d::initial_state(end.p, 0.002, 7, 1);
  const auto g = solvent::angiogenesis_3d::grid_of(end.p);
  double x0 = 0.0, x1 = 0.0;  // the centre of mass of n along x
  for (std::int32_t k = 0; k < g.nz; ++k)
    for (std::int32_t j = 0; j < g.ny; ++j)
      for (std::int32_t i = 0; i < g.nx; ++i) {
        const auto m = static_cast<std::size_t>(g.index(i, j, k));
        REQUIRE(end.n[m] >= 0.0);
        x0 += i * start.n[m] / std::accumulate(start.n.begin(), start.n.end(), 0.0);
        x1 += i * end.n[m] / std::accumulate(end.n.begin(), end.n.end(), 0.0);
      }
  MESSAGE("centre of n along x: node " << x0 << " at the start, " << x1 << " at the end");
  CHECK(x1 > x0 + 0.5);
}

TEST_CASE("the continuous mode's step limit is refused; forced, a negative n stops the run") {
  const auto dir = fresh_dir("continuous-unstable");
  CHECK_THROWS_WITH_AS(
      run(continuous_model(17), integrator(3, {{"dt", 0.1}}), dir),
      doctest::Contains("(P0 >= 0 (the weight of n at its own node, from diffusion and taxis))"),
      solvent::ConfigError);
  // Forced, P0 = 1 - 6kD/h^2 < 0 turns the cells at the parent vessel (n_width 0.001: one
  // node wide) negative at once.
  auto sharp = continuous_model(17);
  sharp["parameters.n_width"] = 0.001;
  try {
    run(sharp, integrator(3, {{"dt", 0.1}, {"force_dt", true}}), dir);
    FAIL("the forced unstable run ended normally");
  } catch (const solvent::DivergenceError& e) {
    const std::string msg = e.what();
    INFO(msg);
    CHECK(e.exit_code() == 6);
    CHECK(msg.rfind("explicit-stencil3d: at step 3 (t = 0.3) n = -", 0) == 0);
    CHECK(msg.find("is outside its range [0, inf]; a weight of the n update is negative") !=
          std::string::npos);
    // The message the model's page gives as its example, from the node's value on (its line
    // breaks read as spaces).
    auto example = solvent::test::quoted_text(MODEL_DOC, "on 17³: `", "`)");
    for (auto at = example.find('\n'); at != std::string::npos; at = example.find('\n', at))
      example.replace(at, example.find_first_not_of(' ', at + 1) - at, " ");
    CHECK(msg.substr(msg.find(") n = ") + 2) == example);
  }
}

TEST_CASE("a continuous run resumed from its checkpoint ends bit for bit as the whole run") {
  const auto whole = fresh_dir("continuous-whole"), part = fresh_dir("continuous-part");
  const auto model = continuous_model(17);
  run(model, integrator(80, {{"dt", 0.002}}), whole);
  run(model, integrator(30, {{"dt", 0.002}}), part);
  const auto resumed = run(model, integrator(80, {{"dt", 0.002}}), part, 7, part);
  CHECK(resumed.observer.steps.front() == 30);
  CHECK(read_file(whole / "checkpoint.bin") == read_file(part / "checkpoint.bin"));
  CHECK(read_file(whole / "fields_00000080.vti") == read_file(part / "fields_00000080.vti"));
  // A hybrid run does not resume a continuous checkpoint.
  auto hybrid = model;
  hybrid["mode"] = std::string("hybrid");
  CHECK_THROWS_WITH_AS(run(hybrid, integrator(90, {{"dt", 0.002}}), fresh_dir("x"), 7, part),
                       ((part / "checkpoint.bin").string() +
                        ": a checkpoint of explicit-stencil3d (continuous), and this run is "
                        "explicit-stencil3d (hybrid); rerun with --overwrite")
                           .c_str(),
                       solvent::InputError);
}
