// `matm` on the CPU: conformance, the parameters of eq. (5), thread-count independence,
// unconverged solves, the iteration with given parameters and the messages for operators
// MATM cannot take.
#include <solvent_matm/pipeline.hpp>
#include <solvent_test/grid_system.hpp>
#include <solvent_test/quoted_figures.hpp>

#include <cmath>
#include <limits>

using solvent::Stencil7;
using solvent::test::fact;
using solvent::test::Settings;

namespace {

const Settings poisson{
    {"n1", std::int64_t(21)}, {"n2", std::int64_t(17)}, {"n3", std::int64_t(19)}};
const Settings convection{{"n1", std::int64_t(21)},
                          {"n2", std::int64_t(17)},
                          {"n3", std::int64_t(19)},
                          {"problem", std::string("convection-diffusion")},
                          {"velocity", std::string("rotating")},
                          {"peclet", 30.0},
                          {"domain", std::string("basin")}};

std::string setup_error(const Stencil7<double>& a) {
  auto solver = solvent::testkit::make_linear_solver("matm");
  try {
    solver->setup(std::make_shared<const solvent::Operator>(a));
  } catch (const solvent::SolverError& e) {
    return e.what();
  }
  return "no error";
}

// ||A x - f|| / ||f|| straight from the Stencil7, independent of the solver's own code.
double residual_of(const Stencil7<double>& a, const std::vector<double>& f,
                   const std::vector<double>& x) {
  const std::ptrdiff_t off[7] = {0,
                                 -1,
                                 1,
                                 -std::ptrdiff_t(a.n1),
                                 std::ptrdiff_t(a.n1),
                                 -std::ptrdiff_t(a.n1 * a.n2),
                                 std::ptrdiff_t(a.n1 * a.n2)};
  double rr = 0, ff = 0;
  for (std::size_t m = 0; m < a.size(); ++m) {
    if (a.c[0][m] == 0.0) continue;
    double r = a.c[0][m] * x[m] - f[m];
    for (int d = 1; d < 7; ++d)
      if (a.c[d][m] != 0.0) r -= a.c[d][m] * x[std::size_t(std::ptrdiff_t(m) + off[d])];
    rr += r * r;
    ff += f[m] * f[m];
  }
  return std::sqrt(rr / ff);
}

}  // namespace

TEST_CASE("conformance kit: random diagonally dominant non-symmetric stencil") {
  solvent::testkit::LinearSolverChecks c;
  c.kind = solvent::OperatorKind::Stencil7;
  c.direct = false;
  c.tolerance = 1e-10;
  solvent::testkit::check_linear_solver("matm", {{"tolerance", 1e-10}}, c);
}

TEST_CASE("self-adjoint system: k = 0, theta = 1, residual history down to the tolerance") {
  const auto r = solvent::test::solve_grid(poisson, "matm", {});
  REQUIRE(r.stats.converged);
  CHECK(r.stats.status == "converged");
  CHECK(r.stats.residual <= 1e-8);
  REQUIRE(r.stats.residual_history.size() == std::size_t(r.stats.iterations) + 1);
  CHECK(r.stats.residual_history.front() == doctest::Approx(1.0));  // x0 = 0
  CHECK(r.stats.residual_history.back() == r.stats.residual);
  CHECK(fact(r.facts, "self_adjoint") == "true");
  CHECK(std::stod(fact(r.facts, "k")) == 0.0);
  CHECK(std::stod(fact(r.facts, "theta")) == 1.0);
  CHECK(std::stod(fact(r.facts, "omega")) > 0.0);
  CHECK(std::stod(fact(r.facts, "tau")) > 0.0);
  CHECK(r.stats.iterations < 80);
}

TEST_CASE("non-self-adjoint system: k > 0, theta < 1, converges") {
  const auto r =
      solvent::test::solve_grid(convection, "matm", {{"max_iterations", std::int64_t(3000)}});
  REQUIRE(r.stats.converged);
  CHECK(fact(r.facts, "self_adjoint") == "false");
  CHECK(std::stod(fact(r.facts, "k")) > 0.0);
  CHECK(std::stod(fact(r.facts, "theta")) < 1.0);
  auto model = solvent::testkit::make_model("grid-equations-3d", convection);
  const auto& a = std::get<Stencil7<double>>(*model->linear()->matrix());
  const auto f = std::get<std::vector<double>>(model->linear()->rhs());
  CHECK(residual_of(a, f, r.x) <= 1.01e-8);
}

TEST_CASE("one thread and two threads give the same iterates") {
  const auto one = solvent::test::solve_grid(
      convection, "matm", {{"threads", std::int64_t(1)}, {"max_iterations", std::int64_t(3000)}});
  const auto two = solvent::test::solve_grid(
      convection, "matm", {{"threads", std::int64_t(2)}, {"max_iterations", std::int64_t(3000)}});
  CHECK(fact(two.facts, "threads") == "2");
  CHECK(std::abs(one.stats.iterations - two.stats.iterations) <= 1);
  double d = 0, n = 0;
  for (std::size_t m = 0; m < one.x.size(); ++m) {
    d = std::max(d, std::abs(one.x[m] - two.x[m]));
    n = std::max(n, std::abs(one.x[m]));
  }
  CHECK(d / n < 1e-7);
  const std::size_t common = std::min<std::size_t>(20, one.stats.residual_history.size());
  for (std::size_t i = 0; i < common; ++i)
    CHECK(two.stats.residual_history[i] ==
          doctest::Approx(one.stats.residual_history[i]).epsilon(1e-9));
}

TEST_CASE("max_iterations reached: converged = false, status, and the iterate's true residual") {
  const auto r = solvent::test::solve_grid(poisson, "matm", {{"max_iterations", std::int64_t(3)}});
  CHECK_FALSE(r.stats.converged);
  CHECK(r.stats.status == "max_iterations");
  CHECK(r.stats.iterations == 3);
  CHECK(r.stats.residual > 1e-8);
  auto model = solvent::testkit::make_model("grid-equations-3d", poisson);
  const auto& a = std::get<Stencil7<double>>(*model->linear()->matrix());
  const auto f = std::get<std::vector<double>>(model->linear()->rhs());
  CHECK(residual_of(a, f, r.x) == doctest::Approx(r.stats.residual).epsilon(1e-9));
}

TEST_CASE("operators MATM cannot take: one clear message each") {
  SUBCASE("a grid dimension below 3") {
    Stencil7<double> a(2, 5, 5);
    CHECK(setup_error(a) ==
          "matm: grid 2 x 5 x 5: every dimension must be at least 3 (a layer of boundary nodes on "
          "each side)");
  }
  SUBCASE("a negative c0") {
    Stencil7<double> a(3, 3, 3);
    a.c[0][a.index(1, 1, 1)] = -1.0;
    CHECK(setup_error(a) ==
          "matm: c0 = -1 at node (1, 1, 1); MATM needs c0 > 0 on every active node (c0 = 0 marks "
          "an inactive node)");
  }
  SUBCASE("non-finite couplings: the first axis's, at the first node, named") {
    Stencil7<double> a(3, 4, 4);
    const auto p = a.index(1, 1, 1);
    for (const auto m : {p, a.index(1, 2, 1), a.index(1, 1, 2)}) a.c[0][m] = 1.0;
    a.c[6][p] = std::numeric_limits<double>::infinity();  // p -> (1, 1, 2), axis 3
    a.c[4][p] = std::numeric_limits<double>::quiet_NaN();  // p -> (1, 2, 1), axis 2
    CHECK(setup_error(a) == "matm: non-finite coupling c4 = nan at node (1, 1, 1)");
    a.c[4][p] = 0.0;
    CHECK(setup_error(a) == "matm: non-finite coupling c6 = inf at node (1, 1, 1)");
  }
  SUBCASE("a symmetric part that is not diagonally dominant") {
    Stencil7<double> a(4, 3, 3);
    const auto p = a.index(1, 1, 1), q = a.index(2, 1, 1);
    a.c[0][p] = a.c[0][q] = 1.0;
    a.c[2][p] = 3.0;  // p -> its +x neighbour q
    a.c[1][q] = 3.0;  // q -> its -x neighbour p
    CHECK(setup_error(a) ==
          "matm: the symmetric part of the operator is not diagonally dominant at node (1, 1, 1): "
          "sum of "
          "|a0(m, n)| / sqrt(c0(m) c0(n)) = 3 > 1; MATM builds its preconditioner from that part "
          "and needs it "
          "positive definite");
  }
  SUBCASE("an operator of another kind") {
    auto solver = solvent::testkit::make_linear_solver("matm");
    solvent::DenseMatrix<double> d(2, 2);
    CHECK_THROWS_AS(solver->setup(std::make_shared<const solvent::Operator>(d)),
                    solvent::UnsupportedOperator);
  }
}

TEST_CASE("a zero right-hand side gives the zero solution at once") {
  auto model = solvent::testkit::make_model("grid-equations-3d", poisson);
  auto solver = solvent::testkit::make_linear_solver("matm");
  solver->setup(model->linear()->matrix());
  std::vector<double> b(21 * 17 * 19, 0.0), x(b.size(), 0.0);
  const auto st = solver->solve(std::span<const double>(b), std::span<double>(x));
  CHECK(st.converged);
  CHECK(st.iterations == 0);
}

namespace {

// The problem of the ConfigError that making `matm` with these settings throws, or "".
std::string config_problem(const Settings& s) {
  try {
    solvent::testkit::make_linear_solver("matm", s);
  } catch (const solvent::ConfigError& e) {
    return e.problems().empty() ? "" : e.problems().front();
  }
  return "";
}

int operations(const solvent::Facts& f) { return std::stoi(fact(f, "operations_per_node")); }

}  // namespace

TEST_CASE("given omega and tau: the variational iteration's last values converge too") {
  // docs/models/grid-equations-3d.md quotes the iterations, given against variational.
  std::string quote = "a variational solve ends\n  with took ";
  // The package's README gives the same counts.
  std::string readme = "(21 x 17 x 19 Poisson: ";
  for (const Settings* model : {&poisson, &convection}) {
    const Settings limit{{"max_iterations", std::int64_t(3000)}};
    const auto variational = solvent::test::solve_grid(*model, "matm", limit);
    REQUIRE(variational.stats.converged);
    const double omega = std::stod(fact(variational.facts, "omega"));
    const double tau = std::stod(fact(variational.facts, "tau"));
    const auto given = solvent::test::solve_grid(*model, "matm",
                                                 {{"max_iterations", std::int64_t(3000)},
                                                  {"parameters", std::string("given")},
                                                  {"omega", omega},
                                                  {"tau", tau}});
    INFO("self-adjoint " << fact(given.facts, "self_adjoint") << ": variational "
                         << variational.stats.iterations << " iterations, given "
                         << given.stats.iterations);
    REQUIRE(given.stats.converged);
    CHECK(given.stats.residual <= 1e-8);
    CHECK(fact(given.facts, "parameters") == "given");
    CHECK(fact(given.facts, "iterations") == std::to_string(given.stats.iterations));
    CHECK(std::stod(fact(given.facts, "omega")) == doctest::Approx(omega));
    CHECK(std::stod(fact(given.facts, "tau")) == doctest::Approx(tau));
    CHECK(fact(given.facts, "theta").empty());  // nothing estimates s, k or theta
    // The same solution, to the tolerance.
    double d = 0, n = 0;
    for (std::size_t m = 0; m < given.x.size(); ++m) {
      d = std::max(d, std::abs(given.x[m] - variational.x[m]));
      n = std::max(n, std::abs(variational.x[m]));
    }
    CHECK(d / n < 1e-6);
    const auto given_quoted = solvent::test::quoted_figure(MODEL_DOC, quote);
    CHECK(given_quoted == std::to_string(given.stats.iterations));
    quote += given_quoted + (model == &poisson ? " iterations against " : " against ");
    const auto variational_quoted = solvent::test::quoted_figure(MODEL_DOC, quote);
    CHECK(variational_quoted == std::to_string(variational.stats.iterations));
    quote += variational_quoted + " on a 21 x 17 x 19 Poisson grid, ";
    const auto given_readme = solvent::test::quoted_figure(MATM_README, readme);
    CHECK_MESSAGE(given_readme == std::to_string(given.stats.iterations),
                  "README.md quotes " << given_readme << " after '" << readme << "'");
    readme += given_readme +
              (model == &poisson ? " iterations\n  against the variational " : " against ");
    const auto variational_readme = solvent::test::quoted_figure(MATM_README, readme);
    CHECK_MESSAGE(variational_readme == std::to_string(variational.stats.iterations),
                  "README.md quotes " << variational_readme << " after '" << readme << "'");
    readme += variational_readme + "; the convection-diffusion basin: ";
    // Fixed parameters cost iterations, each about half the operations.
    CHECK(given.stats.iterations < 4 * variational.stats.iterations);
    CHECK(2 * operations(given.facts) < operations(variational.facts) + 10);
  }
}

TEST_CASE("the record states the operations per node of an iteration, by phase") {
  const auto r = solvent::test::solve_grid(poisson, "matm", {});
  CHECK(fact(r.facts, "operations_per_node") ==
        "101 (update 2, residual 22, sweeps 31, inner products 46)");
  const auto g = solvent::test::solve_grid(
      convection, "matm",
      {{"parameters", std::string("given")}, {"omega", 1.0}, {"tau", 1e-4},
       {"max_iterations", std::int64_t(1)}});
  CHECK(fact(g.facts, "operations_per_node") ==
        "67 (update 2, residual 34, sweeps 31, inner products 0)");
  // The totals docs/models/grid-equations-3d.md compares, given against variational.
  const auto given_poisson = solvent::test::solve_grid(poisson, "matm",
                                                       {{"parameters", std::string("given")},
                                                        {"omega", 1.0},
                                                        {"tau", 1e-4},
                                                        {"max_iterations", std::int64_t(1)}});
  const auto variational_convection =
      solvent::test::solve_grid(convection, "matm", {{"max_iterations", std::int64_t(1)}});
  std::string quote = "inner products 46 (76 with A1) — ";
  for (const auto* run : {&given_poisson, &r, &g, &variational_convection}) {
    const auto figure = solvent::test::quoted_figure(MODEL_DOC, quote);
    CHECK(figure == std::to_string(operations(run->facts)));
    quote += figure + (run == &r ? " operations self-adjoint, " : " against ");
  }
  // The package's README gives them variational first.
  std::string readme = "(`operations_per_node()` in `src/iteration.cpp`): ";
  const char* after[] = {" variational against ", " given\n  (self-adjoint), ", " against ", ""};
  int i = 0;
  for (const auto* run : {&r, &given_poisson, &variational_convection, &g}) {
    const auto figure = solvent::test::quoted_figure(MATM_README, readme);
    CHECK_MESSAGE(figure == std::to_string(operations(run->facts)),
                  "README.md quotes " << figure << " after '" << readme << "'");
    readme += figure + after[i++];
  }
}

TEST_CASE("given parameters: contradictions are configuration errors") {
  CHECK(config_problem({{"parameters", std::string("given")}, {"omega", 1.5}}) ==
        "matm: parameters = \"given\" needs omega > 0 and tau > 0 (got omega = 1.5, tau = 0)");
  CHECK(config_problem({{"tau", 0.1}}) ==
        "matm: omega and tau are read only with parameters = \"given\" (the variational "
        "iteration computes its own)");
  CHECK(config_problem({{"parameters", std::string("given")},
                        {"omega", 1.5},
                        {"tau", 0.1},
                        {"omega0", 2.0}}) ==
        "matm: omega0 is the first w of the variational iteration; with parameters = \"given\" "
        "every iteration takes omega");
}

// Over ranks the sweeps are cut in the count the link model gives from a rank's timed work.
// A rank on a loaded machine can wait for its neighbour longer than it sweeps; the model
// must still give a count of 1 .. units (a NaN count converted to int cut the sweeps into
// no fragment at all, and the iteration broke down on inner products of 0).
TEST_CASE("the pipeline's fragment count is the model's, and within 1 .. units for any time") {
  using solvent::matm::pipeline_fragments;
  const solvent::LinkFit link{1e-5, 1e-9};  // 10 us, 1 GB/s
  // sqrt((4 - 1)(2e-3 + 1e-9 * 1e5) / 1e-5) = sqrt(630) = 25.1
  CHECK(pipeline_fragments(4, 64, link, 2e-3, 1e5) == 25);
  CHECK(pipeline_fragments(4, 8, link, 2e-3, 1e5) == 8);
  CHECK(pipeline_fragments(1, 64, link, 2e-3, 1e5) == 1);
  CHECK(pipeline_fragments(4, 64, solvent::LinkFit{0.0, 0.0}, 2e-3, 1e5) == 64);
  // No work: the strips alone, sqrt(3e-4 / 1e-5) = 5.5.
  CHECK(pipeline_fragments(4, 64, link, 0.0, 1e5) == 5);
  CHECK(pipeline_fragments(4, 64, link, -3e-3, 1e5) == 5);
  CHECK(pipeline_fragments(4, 64, link, std::nan(""), 1e5) == 5);
  CHECK(pipeline_fragments(2, 1, link, -1.0, 0.0) == 1);
}
