// The fast paths change the cost, not the answer: reusing the factorization equals
// refactoring every step, and the banded solve of the node-interleaved system equals the
// dense solve, over whole trajectories.
#include "imex_run.hpp"

#include <solvent_test/quoted_figures.hpp>

#include <doctest/doctest.h>

using namespace angio1d_test;

namespace {
RunSpec paper_run(const std::string& solver, bool reuse) {
  RunSpec s;
  s.model = {{"M", 80}};
  s.integrator_settings = {{"dt", 0.01}, {"steps", 40}};
  s.solver = solver;
  s.solver_settings = {{"reuse_factorization", reuse}};
  return s;
}
}  // namespace

TEST_CASE("reuse_factorization equals refactoring every step to 1e-12") {
  for (const std::string solver : {"gepp-cpu", "lapack", "banded"}) {
    CAPTURE(solver);
    const auto refactored = run(paper_run(solver, false));
    const auto reused = run(paper_run(solver, true));
    const double d = relative_difference(reused, refactored);
    MESSAGE(solver << ": reuse vs refactor, max relative difference " << d);
    CHECK(d < 1e-12);
    CHECK(fact(refactored.solver_facts, "factorizations") == "40");
    CHECK(fact(reused.solver_facts, "factorizations") == "1");
    // The model's table of evidence: "identical (difference 0); 1 factorization against 40".
    const std::string before = "| identical (difference ";
    const auto difference = solvent::test::quoted_figure(MODEL_DOC, before);
    CHECK(d == std::stod(difference));
    const auto counts = before + difference + "); ";
    const auto reused_count = solvent::test::quoted_figure(MODEL_DOC, counts);
    CHECK(fact(reused.solver_facts, "factorizations") == reused_count);
    CHECK(fact(refactored.solver_facts, "factorizations") ==
          solvent::test::quoted_figure(MODEL_DOC,
                                       counts + reused_count + " factorization against "));
  }
}

TEST_CASE("banded equals dense to 1e-12, and is what auto picks") {
  const auto dense = run(paper_run("lapack", false));
  const auto banded = run(paper_run("banded", true));
  CHECK(fact(dense.integrator_facts, "operator_form") == "dense");
  CHECK(fact(banded.integrator_facts, "operator_form") == "banded");
  const double d = relative_difference(banded, dense);
  MESSAGE("banded vs lapack (dense), max relative difference " << d);
  // The bounds the model's page states, in its table of evidence and its opening.
  solvent::test::check_quoted_bound(MODEL_DOC, "| same run, banded vs lapack | below ", d);
  solvent::test::check_quoted_bound(MODEL_DOC, "the solver paths agree to below ", d);
}
