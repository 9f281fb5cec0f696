// Orders of accuracy, measured against the manufactured solution (mode = "manufactured").
// The figures are those the evidence table of docs/models/angiogenesis-1d.md quotes.
#include "imex_run.hpp"

#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

#include <cmath>

using namespace angio1d_test;

namespace {
constexpr double t_end = 0.25;

RunSpec manufactured(std::int64_t m, const std::string& integrator, std::int64_t steps) {
  RunSpec s;
  s.model = {{"M", m}, {"mode", std::string("manufactured")}};
  s.integrator = integrator;
  // The manufactured C vanishes at both ends; the projection would only clip round-off.
  s.integrator_settings = {{"dt", t_end / double(steps)}, {"steps", steps}, {"projection", false}};
  return s;
}

// `measured` is what the model's page quotes right after `before`; the next figure of the
// same list follows "`before`FIGURE, ".
std::string check_quoted(const std::string& before, double measured) {
  const auto figure = solvent::test::quoted_figure(MODEL_DOC, before);
  CHECK_MESSAGE(solvent::test::written_like(measured, figure) == figure,
                "docs/models/angiogenesis-1d.md quotes " << figure << " after '" << before
                                                         << "'; the test measures " << measured);
  return before + figure + ", ";
}
}  // namespace

TEST_CASE("manufactured solution: second order in space over five grids") {
  // dt = 2 h^2 with the second-order integrator keeps the time error (O(dt^2) = O(h^4))
  // far below the spatial one, so the error measured is the discretisation's.
  std::vector<double> h, errors;
  for (std::int64_t m : {21, 41, 81, 161, 321}) {
    const double hm = 1.0 / double(m - 1);
    const auto steps = std::int64_t(std::ceil(t_end / (2.0 * hm * hm)));
    const auto traj = run(manufactured(m, "imex-cnab2", steps));
    h.push_back(hm);
    errors.push_back(error_against_exact(traj));
    MESSAGE("M = " << m << ", h = " << hm << ", steps = " << steps
                   << ", max error = " << errors.back());
  }
  const double order = fitted_order(h, errors);
  MESSAGE("fitted spatial order " << order);
  CHECK(std::abs(order - 2.0) < 0.1);
  std::string before = "to t = 0.25, max error | ";
  for (double e : errors) before = check_quoted(before, e);
  check_quoted(before.substr(0, before.size() - 2) + ": fitted order ", order);
}

namespace {
// Error in time alone: against a reference on the same grid with 16 times smaller steps
// of the second-order scheme, so the spatial error cancels.
double time_order(const std::string& integrator, std::vector<std::int64_t> steps) {
  constexpr std::int64_t m = 41;
  const auto reference = run(manufactured(m, "imex-cnab2", 16 * steps.back()));
  std::vector<double> dt, errors;
  for (auto n : steps) {
    const auto traj = run(manufactured(m, integrator, n));
    dt.push_back(t_end / double(n));
    errors.push_back(relative_difference(traj.last(), reference.last()));
    MESSAGE(integrator << ": dt = " << dt.back() << ", error = " << errors.back());
  }
  const double order = fitted_order(dt, errors);
  MESSAGE(integrator << ": fitted time order " << order);
  return order;
}
}  // namespace

TEST_CASE("1D model: imex-trapezoid is first order in time, imex-cnab2 second") {
  const double trapezoid = time_order("imex-trapezoid", {20, 40, 80, 160});
  const double cnab2 = time_order("imex-cnab2", {20, 40, 80, 160});
  CHECK(std::abs(trapezoid - 1.0) < 0.1);
  CHECK(std::abs(cnab2 - 2.0) < 0.1);
  check_quoted(check_quoted("finer cnab2 run | imex-trapezoid ", trapezoid) + "imex-cnab2 ", cnab2);
}

TEST_CASE("integrator level (testkit problem): trapezoid order 1, cnab2 order 2") {
  const double trapezoid = solvent::testkit::measured_time_order("imex-trapezoid", {});
  const double cnab2 = solvent::testkit::measured_time_order("imex-cnab2", {});
  MESSAGE("testkit orders: imex-trapezoid " << trapezoid << ", imex-cnab2 " << cnab2);
  CHECK(std::abs(trapezoid - 1.0) < 0.1);
  CHECK(std::abs(cnab2 - 2.0) < 0.1);
  check_quoted(check_quoted("measured_time_order` | trapezoid ", trapezoid) + "cnab2 ", cnab2);
}
