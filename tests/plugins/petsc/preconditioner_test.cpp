// The petsc-pc and petsc-pc-complex preconditioners, loaded by name as `solvent run` loads
// them, beside the petsc and petsc-complex solvers in this one process: what apply computes,
// refresh with new values, the messages, and all four plugins (two PETSc builds, each shared
// by a solver and a preconditioner) at work one after the other.
#include <solvent_test/preconditioner_checks.hpp>
#include <solvent_test/solver_checks.hpp>
#include <solvent_test/test_matrices.hpp>

#include <doctest/doctest.h>

#include <string>

using namespace solvent;
using namespace solvent::test;
using solvent::test::applied;
using testkit::Settings;

namespace {

std::string fact(const PluginObject& o, const std::string& key) {
  for (const auto& [k, v] : o.facts())
    if (k == key) return v;
  return "";
}

// The problem each ConfigError holds, for exact comparison.
std::string config_error(const std::string& name, const Settings& s) {
  try {
    testkit::make_preconditioner(name, s);
  } catch (const ConfigError& e) {
    REQUIRE(e.problems().size() == 1);
    return e.problems().front();
  }
  return "no error";
}

}  // namespace

TEST_CASE("conformance: petsc-pc (ilu, hypre's BoomerAMG, lu with MUMPS), petsc-pc-complex (ilu)") {
  testkit::check_preconditioner("petsc-pc");
  testkit::check_preconditioner("petsc-pc", {{"pc_type", "hypre"}});
  testkit::check_preconditioner("petsc-pc", {{"pc_type", "lu"}, {"factor_solver_type", "mumps"}});
  testkit::check_preconditioner("petsc-pc-complex");
}

// true_residual(a, r, z) = ||A z - r|| / ||r||: how exactly z = A^-1 r.
TEST_CASE("petsc-pc: apply is PETSc's M^-1 r: lu (MUMPS) inverts A, jacobi divides by diag(A)") {
  const auto a = convection_diffusion(7, 10.0);
  const auto r = random_vector<double>(a.rows, 2);
  auto lu = testkit::make_preconditioner("petsc-pc",
                                         {{"pc_type", "lu"}, {"factor_solver_type", "mumps"}});
  lu->setup(share(a));
  CHECK(true_residual(a, r, applied(*lu, r)) <= 1e-12);
  CHECK(fact(*lu, "factor_solver_type") == "mumps");

  // The seven-point form, assembled by the plugin (not converted by the core).
  const auto s = laplacian_stencil<double>(6, 5, 4, 0.5);
  auto jacobi = testkit::make_preconditioner("petsc-pc", {{"pc_type", "jacobi"}});
  jacobi->setup(share(s));
  const auto rs = random_vector<double>(s.size(), 3);
  const auto z = applied(*jacobi, rs);
  // PETSc multiplies by the inverted diagonal.
  for (std::size_t i = 0; i < z.size(); ++i) CHECK(z[i] == rs[i] * (1.0 / 6.5));
  // A seven-point operator of the same size with new values: assembled anew, and the PC set
  // up from it, not left with the old diagonal.
  jacobi->refresh(share(laplacian_stencil<double>(6, 5, 4, 1.5)));
  const auto z2 = applied(*jacobi, rs);
  for (std::size_t i = 0; i < z2.size(); ++i) CHECK(z2[i] == rs[i] * (1.0 / 7.5));

  // r and z one vector: the same z.
  std::vector<double> inplace = r;
  lu->apply(std::span<const double>(inplace), std::span<double>(inplace));
  CHECK(max_relative_difference(inplace, applied(*lu, r)) == 0.0);

  // Complex: MUMPS in complex arithmetic.
  const auto h = helmholtz_box(6, 6, 6, 3.0);
  const auto rc = helmholtz_rhs(h.rows);
  auto clu = testkit::make_preconditioner("petsc-pc-complex",
                                          {{"pc_type", "lu"}, {"factor_solver_type", "mumps"}});
  clu->setup(share(h));
  CHECK(true_residual(h, rc, applied(*clu, rc)) <= 1e-12);
}

TEST_CASE(
    "petsc-pc: refresh copies the new values into the matrix held; another size is built anew") {
  const auto a = convection_diffusion(6, 5.0);
  const auto r = random_vector<double>(a.rows, 4);
  auto pc = testkit::make_preconditioner("petsc-pc", {{"pc_type", "lu"}});
  pc->setup(share(a));
  auto shifted = a;
  for (std::size_t i = 0; i < shifted.rows; ++i)
    for (auto k = shifted.row_ptr[i]; k < shifted.row_ptr[i + 1]; ++k)
      if (static_cast<std::size_t>(shifted.col_idx[k]) == i) shifted.values[k] += 3.0;
  pc->refresh(share(shifted));
  CHECK(fact(*pc, "matrix_builds") == "1");
  CHECK(fact(*pc, "value_updates") == "1");
  // The factors are those of the new values, not the old ones.
  CHECK(true_residual(shifted, r, applied(*pc, r)) <= 1e-12);
  CHECK(true_residual(a, r, applied(*pc, r)) > 1e-3);

  const auto other = convection_diffusion(5, 5.0);
  const auto r2 = random_vector<double>(other.rows, 5);
  pc->setup(share(other));
  CHECK(fact(*pc, "matrix_builds") == "2");
  CHECK(true_residual(other, r2, applied(*pc, r2)) <= 1e-12);
  test::check_apply_refusals("petsc-pc", share(a));
}

TEST_CASE(
    "petsc-pc: an unknown pc_type lists this PETSc's; hypre is named missing in the complex "
    "build") {
  const std::string unknown = config_error("petsc-pc", {{"pc_type", "ilu0"}});
  // Located at the value: the kit passes settings as --set does.
  CHECK(unknown.rfind(
            "--set: [preconditioner] (preconditioner 'petsc-pc'): pc_type 'ilu0' is not a PC "
            "type of this PETSc (3.",
            0) == 0);
  CHECK(unknown.find("; it offers: asm, ") != std::string::npos);
  CHECK(unknown.find(" hypre, ") != std::string::npos);

  const std::string complex_hypre = config_error("petsc-pc-complex", {{"pc_type", "hypre"}});
  CHECK(complex_hypre.rfind(
            "--set: [preconditioner] (preconditioner 'petsc-pc-complex'): pc_type 'hypre' "
            "is not available: this PETSc (3.",
            0) == 0);
  CHECK(complex_hypre.find(", complex scalars) is built without hypre (BoomerAMG is in the real "
                           "plugins, petsc and petsc-pc); it offers: ") != std::string::npos);
  CHECK(complex_hypre.find(" hypre,") == std::string::npos);
  // The solver of the complex build says the same.
  try {
    testkit::make_linear_solver("petsc-complex", {{"pc_type", "hypre"}});
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(e.problems().front().find("pc_type 'hypre' is not available") != std::string::npos);
  }
}

TEST_CASE("petsc-pc: options are its own; one PETSc does not read is reported") {
  const auto a = convection_diffusion(6, 5.0);
  auto ilu = testkit::make_preconditioner(
      "petsc-pc", {{"options", "-pc_factor_levels 1 -pc_hypre_type boomeramg"}});
  ilu->setup(share(a));
  CHECK(fact(*ilu, "unused_options") == "-pc_hypre_type");
  auto amg = testkit::make_preconditioner(
      "petsc-pc", {{"pc_type", "hypre"}, {"options", "-pc_hypre_type boomeramg"}});
  amg->setup(share(a));
  CHECK(fact(*amg, "unused_options") == "");
  auto other = testkit::make_preconditioner("petsc-pc", {{"options", "-pc_type jacobi"}});
  other->setup(share(a));
  CHECK(fact(*other, "pc_type_in_use") == "jacobi");
  CHECK(fact(*ilu, "pc_type_in_use") == "");
  // Options that name nothing are refused.
  CHECK(config_error("petsc-pc", {{"options", "boomeramg"}}) ==
        "--set: [preconditioner] (preconditioner 'petsc-pc'): options 'boomeramg' names no option "
        "(PETSc's options begin with '-')");
  // A value PETSc cannot read is a configuration error too, found when the object is made
  // (by `solvent validate`), not at the first solve; the PC made by then is freed with the
  // half-made object (LeakSanitizer checks it in the sanitizer build).
  CHECK(config_error("petsc-pc", {{"options", "-pc_factor_levels banana"}}) ==
        "--set: [preconditioner] (preconditioner 'petsc-pc'): options '-pc_factor_levels "
        "banana': PETSc refused them (PCSetFromOptions): Input string banana has no integer "
        "value (do not include . in it) (in PetscOptionsStringToInt)");
}

TEST_CASE(
    "petsc-pc: a PETSc failure is a SolverError with PETSc's message, also beside a petsc solver") {
  // petsc and petsc-pc share one libpetsc_real; each keeps PETSc's message of its own calls.
  const auto a = convection_diffusion(5, 5.0);
  auto solver =
      testkit::make_linear_solver("petsc", {{"pc_type", "lu"}, {"factor_solver_type", "nosuch"}});
  auto pc = testkit::make_preconditioner("petsc-pc",
                                         {{"pc_type", "lu"}, {"factor_solver_type", "nosuch"}});
  // doctest::Contains takes a C string.
  CHECK_THROWS_WITH_AS(pc->setup(share(a)),
                       doctest::Contains("petsc-pc: PCSetUp failed: Could not locate solver type "
                                         "nosuch for factorization type LU"),
                       SolverError);
  CHECK_THROWS_WITH_AS(solver->setup(share(a)),
                       doctest::Contains("petsc: KSPSetUp (the preconditioner's setup) failed: "
                                         "Could not locate solver type nosuch for factorization "
                                         "type LU"),
                       SolverError);
}

TEST_CASE(
    "Krylov solvers with petsc-pc take fewer iterations than with jacobi, to the same tolerance") {
  const auto s = laplacian_stencil<double>(12, 11, 10, 0.0);
  const auto op = share(s);
  const auto b = random_vector<double>(s.size(), 8);
  for (const char* method : {"bicgstab", "tfqmr", "bicgstab-l", "cg"}) {
    std::vector<double> x(s.size());
    const Settings settings = {{"tolerance", 1e-10}};
    const auto jacobi = solve_with<double>(method, settings, op, b, x, "jacobi");
    REQUIRE(jacobi.converged);
    for (const Settings& pc : {Settings{{"pc_type", "hypre"}}, Settings{{"pc_type", "ilu"}},
                               Settings{{"pc_type", "asm"}}}) {
      CAPTURE(method);
      CAPTURE(std::get<std::string>(pc.at("pc_type")));
      std::fill(x.begin(), x.end(), 0.0);
      auto solver = testkit::make_linear_solver(method, settings);
      solver->set_preconditioner(testkit::make_preconditioner("petsc-pc", pc));
      solver->setup(op);
      const auto st = solver->solve(std::span<const double>(b), std::span<double>(x));
      CHECK(st.converged);
      CHECK(true_residual(s, b, x) <= 1e-9);
      CHECK(st.iterations < jacobi.iterations);
    }
  }
}

TEST_CASE("both PETSc builds, solver and preconditioner each, one after the other in one process") {
  const auto real_a = convection_diffusion(8, 10.0);
  const auto real_b = random_vector<double>(real_a.rows, 1);
  const auto cplx_a = helmholtz_box(8, 8, 8, 3.0);
  const auto cplx_b = helmholtz_rhs(cplx_a.rows);
  auto real_solver = testkit::make_linear_solver("petsc", {{"tolerance", 1e-10}});
  auto real_krylov = testkit::make_linear_solver("bicgstab", {{"tolerance", 1e-10}});
  real_krylov->set_preconditioner(testkit::make_preconditioner("petsc-pc"));
  auto cplx_solver = testkit::make_linear_solver("petsc-complex", {{"tolerance", 1e-10}});
  auto cplx_krylov = testkit::make_linear_solver("bicgstab", {{"tolerance", 1e-10}});
  cplx_krylov->set_preconditioner(testkit::make_preconditioner("petsc-pc-complex"));

  const auto solve_real = [&](LinearSolver& solver) {
    solver.setup(share(real_a));
    std::vector<double> x(real_a.rows);
    CHECK(solver.solve(std::span<const double>(real_b), std::span<double>(x)).converged);
    CHECK(true_residual(real_a, real_b, x) <= 1e-9);
  };
  const auto solve_complex = [&](LinearSolver& solver) {
    solver.setup(share(cplx_a));
    std::vector<complex> z(cplx_a.rows);
    CHECK(solver.solve(std::span<const complex>(cplx_b), std::span<complex>(z)).converged);
    CHECK(true_residual(cplx_a, cplx_b, z) <= 1e-9);
  };
  solve_real(*real_solver);
  solve_real(*real_krylov);
  solve_complex(*cplx_solver);
  solve_complex(*cplx_krylov);
  // The real ones again, with the complex ones alive.
  solve_real(*real_krylov);
  solve_real(*real_solver);
  // A complex operator is not handed to the real preconditioner.
  auto real_pc = testkit::make_preconditioner("petsc-pc");
  CHECK_THROWS_AS(real_pc->setup(share(cplx_a)), UnsupportedOperator);
}
