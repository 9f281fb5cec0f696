// The petsc and petsc-complex plugins, loaded by name as `solvent run` loads them — both in
// this one process, each with its own PETSc library.
#include <solvent_test/solver_checks.hpp>
#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace solvent;
using namespace solvent::test;
using testkit::Settings;

namespace {

std::string fact(const LinearSolver& s, const std::string& key) {
  for (const auto& [k, v] : s.facts())
    if (k == key) return v;
  return "";
}

testkit::LinearSolverChecks iterative(bool real) {
  testkit::LinearSolverChecks c;
  c.real = real;
  c.complex = !real;
  c.kind = OperatorKind::Csr;
  c.direct = false;
  c.tolerance = 1e-10;
  return c;
}

}  // namespace

TEST_CASE("conformance: petsc (gmres + ilu) on real systems, petsc-complex on complex ones") {
  testkit::check_linear_solver("petsc", {{"tolerance", 1e-10}}, iterative(true));
  testkit::check_linear_solver("petsc-complex", {{"tolerance", 1e-10}}, iterative(false));
}

TEST_CASE("conformance: petsc with bcgs + lu (MUMPS)") {
  testkit::check_linear_solver("petsc",
                               {{"tolerance", 1e-10},
                                {"ksp_type", "bcgs"},
                                {"pc_type", "lu"},
                                {"factor_solver_type", "mumps"}},
                               iterative(true));
}

TEST_CASE("petsc: gmres + ilu, cg + jacobi and bcgs + lu (MUMPS) agree on an SPD stencil") {
  // A Stencil7, converted to CSR by the core.
  const auto s = laplacian_stencil<double>(10, 9, 8, 0.0);
  const auto op = share(s);
  const auto b = random_vector<double>(s.size(), 3);
  std::vector<double> reference;
  const Settings methods[] = {
      {},
      {{"ksp_type", "cg"}, {"pc_type", "jacobi"}},
      {{"ksp_type", "bcgs"}, {"pc_type", "lu"}, {"factor_solver_type", "mumps"}},
  };
  for (const auto& m : methods) {
    Settings settings = m;
    settings["tolerance"] = 1e-10;
    std::vector<double> x(s.size());
    auto solver = testkit::make_linear_solver("petsc", settings);
    solver->setup(op);
    const auto st = solver->solve(std::span<const double>(b), std::span<double>(x));
    CAPTURE(fact(*solver, "ksp_type"));
    CHECK(st.converged);
    CHECK(st.status == "converged");
    CHECK(st.residual <= 1e-9);
    CHECK(st.residual == doctest::Approx(true_residual(s, b, x)).epsilon(1e-6));
    CHECK(st.residual_history.size() == static_cast<std::size_t>(st.iterations) + 1);
    CHECK(st.residual_history.front() == 1.0);
    if (reference.empty())
      reference = x;
    else
      CHECK(max_relative_difference(x, reference) <= 1e-7);
  }
}

TEST_CASE("petsc-complex: gmres + ilu and bcgs + lu on a complex Helmholtz system") {
  const auto a = helmholtz_box(10, 10, 10, 4.0);
  const auto op = share(a);
  const auto b = helmholtz_rhs(a.rows);
  std::vector<complex> reference;
  for (const Settings& m :
       {Settings{},
        Settings{{"ksp_type", "bcgs"}, {"pc_type", "lu"}, {"factor_solver_type", "mumps"}}}) {
    Settings settings = m;
    settings["tolerance"] = 1e-10;
    std::vector<complex> x(a.rows);
    const auto st = solve_with<complex>("petsc-complex", settings, op, b, x);
    CHECK(st.converged);
    CHECK(st.residual <= 1e-9);
    check_stats_honest(a, b, x, st, false);
    if (reference.empty())
      reference = x;
    else
      CHECK(max_relative_difference(x, reference) <= 1e-7);
  }
}

TEST_CASE("petsc: max_iterations reached is not convergence, and the residual is the true one") {
  const auto a = convection_diffusion(10, 20.0);
  const auto op = share(a);
  const auto b = random_vector<double>(a.rows, 5);
  std::vector<double> x(a.rows);
  const auto st =
      solve_with<double>("petsc", {{"max_iterations", 2}, {"pc_type", "none"}}, op, b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status == "max_iterations");
  CHECK(st.iterations == 2);
  CHECK(st.residual > 1e-3);
  check_stats_honest(a, b, x, st);
}

TEST_CASE("petsc: convergence PETSc reports on its own norm is checked against the true one") {
  const auto a = convection_diffusion(10, 20.0);
  const auto op = share(a);
  const auto b = random_vector<double>(a.rows, 5);
  std::vector<double> x(a.rows);
  // preonly + jacobi stops after one application of D^-1, with no norm at all, and PETSc
  // calls that converged: x = D^-1 b is far from a solution.
  auto st = solve_with<double>("petsc", {{"ksp_type", "preonly"}, {"pc_type", "jacobi"}}, op, b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status.rfind("PETSc reported convergence (none norm), but the true relative residual ",
                        0) == 0);
  CHECK(st.status.find(" is more than 10 times the tolerance (1.0e-08); options = "
                       "\"-ksp_norm_type unpreconditioned\" stops on the true one") !=
        std::string::npos);
  CHECK(st.residual > 1e-3);
  check_stats_honest(a, b, x, st);
  // preonly + lu (MUMPS) is exact: the same check lets it through.
  st = solve_with<double>(
      "petsc", {{"ksp_type", "preonly"}, {"pc_type", "lu"}, {"factor_solver_type", "mumps"}}, op,
      b, x);
  CHECK(st.converged);
  CHECK(st.residual < 1e-12);
}

TEST_CASE("petsc: a diverging method reports PETSc's reason") {
  const auto s = laplacian_stencil<double>(6, 6, 6, 0.0);
  const auto op = share(s);
  const auto b = random_vector<double>(s.size(), 7);
  std::vector<double> x(s.size());
  // Richardson with a step far too long grows the residual past PETSc's divergence limit.
  const auto st = solve_with<double>(
      "petsc",
      {{"ksp_type", "richardson"}, {"pc_type", "none"}, {"options", "-ksp_richardson_scale 5"}}, op,
      b, x);
  CHECK_FALSE(st.converged);
  CHECK(st.status == "breakdown: DIVERGED_DTOL");
}

TEST_CASE("petsc: an unknown ksp_type or pc_type names what this PETSc offers") {
  for (const char* name : {"petsc", "petsc-complex"}) {
    CAPTURE(name);
    try {
      testkit::make_linear_solver(name, {{"ksp_type", "gmers"}});
      FAIL("no error");
    } catch (const ConfigError& e) {
      const std::string what = e.problems().front();
      CHECK(what.find("ksp_type 'gmers' is not a KSP type") != std::string::npos);
      CHECK(what.find("gmres") != std::string::npos);
      CHECK(what.find("bcgs") != std::string::npos);
    }
    try {
      testkit::make_linear_solver(name, {{"pc_type", "ilu0"}});
      FAIL("no error");
    } catch (const ConfigError& e) {
      const std::string what = e.problems().front();
      CHECK(what.find("pc_type 'ilu0' is not a PC type") != std::string::npos);
      CHECK(what.find("jacobi") != std::string::npos);
    }
  }
}

TEST_CASE("petsc: options PETSc cannot read are refused when the solver is made, its KSP freed") {
  // The KSP exists by then (KSPSetFromOptions reads the options); the sanitizer build's
  // LeakSanitizer fails this test if the half-made solver leaves it behind.
  try {
    testkit::make_linear_solver("petsc", {{"options", "-ksp_gmres_restart banana"}});
    FAIL("no error");
  } catch (const ConfigError& e) {
    REQUIRE(e.problems().size() == 1);
    CHECK(e.problems().front() ==
          "--set: [linear_solver] (linear solver 'petsc'): options '-ksp_gmres_restart banana': "
          "PETSc refused them (KSPSetFromOptions): Input string banana has no integer value (do "
          "not include . in it) (in PetscOptionsStringToInt)");
  }
}

TEST_CASE("petsc: options are this solver's own; one PETSc does not use is reported") {
  const auto a = convection_diffusion(6, 5.0);
  const auto op = share(a);
  const auto b = random_vector<double>(a.rows, 9);
  std::vector<double> x(a.rows);
  // Used: the Gram-Schmidt choice of gmres. Unused with ilu: a hypre option.
  auto solver = testkit::make_linear_solver(
      "petsc", {{"options", "-ksp_gmres_modifiedgramschmidt -pc_hypre_type boomeramg"}});
  solver->setup(op);
  CHECK(fact(*solver, "unused_options") == "-pc_hypre_type");
  CHECK(solver->solve(std::span<const double>(b), std::span<double>(x)).converged);
  // The same option where it is used: hypre's BoomerAMG.
  auto amg = testkit::make_linear_solver(
      "petsc", {{"pc_type", "hypre"}, {"options", "-pc_hypre_type boomeramg"}});
  amg->setup(op);
  CHECK(fact(*amg, "unused_options") == "");
  std::vector<double> y(a.rows);
  CHECK(amg->solve(std::span<const double>(b), std::span<double>(y)).converged);
  // Another solver of the process does not see the first one's options.
  auto plain = testkit::make_linear_solver("petsc", {{"ksp_type", "cg"}, {"pc_type", "jacobi"}});
  plain->setup(share(laplacian_stencil<double>(4, 4, 4, 0.0)));
  CHECK(fact(*plain, "unused_options") == "");
  // `options` may choose other types than the keys; the record names the ones in use.
  auto overridden = testkit::make_linear_solver("petsc", {{"options", "-ksp_type bcgs"}});
  overridden->setup(op);
  CHECK(fact(*overridden, "unused_options") == "");
  CHECK(fact(*overridden, "ksp_type_in_use") == "bcgs");
  CHECK(fact(*overridden, "pc_type_in_use") == "");
}

TEST_CASE("petsc: setting up again reuses the KSP: same operator, same pattern, new pattern") {
  const auto a = convection_diffusion(8, 10.0);
  const auto b = random_vector<double>(a.rows, 4);
  auto solver = testkit::make_linear_solver("petsc", {{"tolerance", 1e-10}});
  const auto op = share(a);
  solver->setup(op);
  solver->setup(op);
  CHECK(fact(*solver, "unchanged_setups") == "1");
  auto shifted = a;
  for (std::size_t r = 0; r < shifted.rows; ++r)
    for (auto k = shifted.row_ptr[r]; k < shifted.row_ptr[r + 1]; ++k)
      if (static_cast<std::size_t>(shifted.col_idx[k]) == r) shifted.values[k] += 2.0;
  solver->setup(share(shifted));
  CHECK(fact(*solver, "value_updates") == "1");
  std::vector<double> x(a.rows);
  auto st = solver->solve(std::span<const double>(b), std::span<double>(x));
  CHECK(st.converged);
  CHECK(true_residual(shifted, b, x) <= 1e-9);  // the new values, not the old ones
  const auto other = convection_diffusion(7, 10.0);
  solver->setup(share(other));
  CHECK(fact(*solver, "matrix_builds") == "2");
  const auto b2 = random_vector<double>(other.rows, 4);
  std::vector<double> x2(other.rows);
  st = solver->solve(std::span<const double>(b2), std::span<double>(x2));
  CHECK(st.converged);
  CHECK(true_residual(other, b2, x2) <= 1e-9);
}

TEST_CASE("petsc and petsc-complex in one process, one after the other and side by side") {
  const auto real_a = convection_diffusion(8, 10.0);
  const auto real_b = random_vector<double>(real_a.rows, 1);
  const auto cplx_a = helmholtz_box(8, 8, 8, 3.0);
  const auto cplx_b = helmholtz_rhs(cplx_a.rows);
  auto real_solver = testkit::make_linear_solver("petsc", {{"tolerance", 1e-10}});
  real_solver->setup(share(real_a));
  std::vector<double> x(real_a.rows);
  CHECK(real_solver->solve(std::span<const double>(real_b), std::span<double>(x)).converged);
  CHECK(true_residual(real_a, real_b, x) <= 1e-9);

  auto cplx_solver = testkit::make_linear_solver("petsc-complex", {{"tolerance", 1e-10}});
  cplx_solver->setup(share(cplx_a));
  std::vector<complex> z(cplx_a.rows);
  CHECK(cplx_solver->solve(std::span<const complex>(cplx_b), std::span<complex>(z)).converged);
  CHECK(true_residual(cplx_a, cplx_b, z) <= 1e-9);

  // The real one again, with the complex one alive.
  std::fill(x.begin(), x.end(), 0.0);
  CHECK(real_solver->solve(std::span<const double>(real_b), std::span<double>(x)).converged);
  CHECK(true_residual(real_a, real_b, x) <= 1e-9);
  // A complex system is not handed to the real plugin.
  CHECK_THROWS_AS(real_solver->setup(share(cplx_a)), UnsupportedOperator);
}

TEST_CASE("petsc: one history entry per iteration, also across gmres restarts") {
  const auto a = convection_diffusion(10, 20.0);
  const auto b = random_vector<double>(a.rows, 6);
  std::vector<double> x(a.rows);
  // No preconditioner: the monitored norm is the residual itself.
  const auto st = solve_with<double>(
      "petsc", {{"pc_type", "none"}, {"restart", 5}, {"tolerance", 1e-10}}, share(a), b, x);
  CHECK(st.converged);
  REQUIRE(st.iterations > 10);  // several restarts
  CHECK(st.residual_history.size() == static_cast<std::size_t>(st.iterations) + 1);
  CHECK(st.residual_history.back() <= 1e-10);
  CHECK(st.residual_history.back() == doctest::Approx(st.residual).epsilon(1e-2));
  for (std::size_t k = 1; k < st.residual_history.size(); ++k)
    CHECK(st.residual_history[k] <= st.residual_history[k - 1] * (1 + 1e-12));  // GMRES
}
