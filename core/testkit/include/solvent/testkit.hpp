#pragma once
// Solvent::testkit — the conformance kit, built on doctest. Loads plugins by name exactly as
// `solvent run` does (solvent/plugin_factory.hpp) and checks any LinearSolver or Integrator
// plugin against the same properties.
#include <solvent/plugin_factory.hpp>
#include <solvent/solvent.hpp>

#include <map>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

namespace solvent::testkit {

// Plugins are made as the framework makes them (solvent/plugin_factory.hpp).
using plugins::device_of;
using plugins::installed;
using plugins::make_integrator;
using plugins::make_linear_solver;
using plugins::make_model;
using plugins::make_preconditioner;
using plugins::runs_distributed;
using plugins::schema_of;
using plugins::Settings;

// True when `solver` (or `pc`) could be set up, false when it threw DeviceUnavailable (a
// GPU plugin on a machine without a GPU); tests use it to report themselves skipped.
bool device_available(LinearSolver& solver);
bool device_available(Preconditioner& pc);

// The conformance checks of a linear solver. The kit does not take the solver's word for
// anything: it recomputes ||b - A x|| / ||b|| of every solve itself, and checks that
// - every (operator kind, scalar) in the solver's forms(), and every one the core converts
//   to one of them, is set up and solved correctly (direct: backward error ~ n * machine
//   epsilon and LAPACK's answer; iterative: the true residual within 10 x tolerance), and
//   every form neither provides is refused with UnsupportedOperator;
// - the residual it reports is the true one (to 10 %, plus what rounding alone allows);
// - it never reports convergence while the true residual exceeds 10 x tolerance — also on
//   a system it cannot solve because max_iterations is cut to 2 (iterative solvers whose
//   schema has max_iterations);
// - setup is reused by several right-hand sides, and the second solve, started from the
//   first one's solution as an integrator's next solve is, is as right as the first;
// - forms() is the truth: matrix-free operators included, every declared form is set up and
//   solved, and a solver that declares one and then refuses it or throws is named with it;
// - a solver that uses_preconditioner() applies it: every declared form is solved without
//   one and with an exact one, which must bring the iterations down to at most 3 or a
//   quarter of those without it. For a CPU solver that is M = A (by LAPACK, in host memory,
//   so matrix-free forms too); for a solver of another device, ILU(0) of that device on a
//   tridiagonal system, where it is the exact LU (matrix-free forms, which have no entries,
//   are not run with it, and without an ILU(0) of its device nothing is); `notes` (where
//   given) says what was not run.
// `kind`, `real` and `complex` say which forms the solver must at least declare.
struct LinearSolverChecks {
  bool real = true;
  bool complex = false;
  OperatorKind kind = OperatorKind::Dense;  // a form the solver must accept
  bool direct = true;                       // direct solvers: backward error ~ machine epsilon
  double tolerance = 1e-10;                 // iterative solvers: relative residual asked for
  std::size_t n = 64;
  // The preconditioner plugin a CPU solver is run with instead of the kit's M = A (ILU(0)
  // on the tridiagonal system, as a solver of another device is): empty for M = A.
  std::string preconditioner{};
};

// What is wrong with the solver, one sentence each, naming the operator form and scalar;
// empty when it conforms. A plugin that cannot find its device is reported as
// DeviceUnavailable (thrown), not as a problem.
std::vector<std::string> linear_solver_problems(const std::string& name, const Settings& s,
                                                const LinearSolverChecks& c,
                                                std::vector<std::string>* notes = nullptr);

// The same as doctest failures, each reported at the caller's line, and the notes as doctest
// messages (call from a TEST_CASE).
void check_linear_solver(const std::string& name, const Settings& s, const LinearSolverChecks& c,
                         std::source_location where = std::source_location::current());

// The conformance checks of a linear solver over the ranks of `comm` (call on every rank
// together): the Poisson system of the model grid-equations-3d on an n^3 grid, assembled in
// blocks over the ranks and, on every rank, whole, is solved both ways with the Jacobi
// preconditioner of the solver's device (jacobi or jacobi-cuda). The distributed solve must
// converge to the tolerance (true residual, over the ranks), and repeat the whole-grid solve:
// bit for bit where `bitwise` (same iterations, residual history and solution block), else
// to rounding (iterations within 2, solution within 100 x tolerance). Needs the plugins
// grid-equations-3d and the Jacobi one; throws DeviceUnavailable without the solver's device.
std::vector<std::string> distributed_linear_solver_problems(const std::string& name,
                                                            const Settings& s,
                                                            const Communicator& comm, bool bitwise,
                                                            long n = 12);

// The same over a CSR matrix distributed by rows: that Poisson system as CSR, its rows split
// over the ranks of `comm` by Scotch (partition_rows), solved with the Jacobi preconditioner
// of the solver's device (jacobi or jacobi-cuda) and compared with the whole matrix's solve on
// one rank: converged to the tolerance (true residual), the iterations within 10 % (and 2), the
// solution within 100 x tolerance (the split reorders the sums, so it is never bit for bit).
// Throws what the solver throws at setup (a solver that refuses a distributed matrix:
// UnsupportedOperator).
std::vector<std::string> distributed_csr_problems(const std::string& name, const Settings& s,
                                                  const Communicator& comm, long n = 10);

// The conformance checks of a preconditioner, run through BiCGSTAB of the preconditioner's
// device (bicgstab or bicgstab-cuda) on a diagonally scaled 2D Laplacian, real and complex as
// its forms allow: the solve with it reaches the tolerance (true residual), takes fewer
// iterations than without it, and after new values on the same pattern (the core calls
// refresh()) behaves as a fresh set-up would. Throws DeviceUnavailable without its device.
std::vector<std::string> preconditioner_problems(const std::string& name, const Settings& s = {});
void check_preconditioner(const std::string& name, const Settings& s = {},
                          std::source_location where = std::source_location::current());

// What is wrong with an integrator, judged on the problem families of the core it accepts: an
// IMEX problem with a manufactured solution (its order in dt must be at least 0.9, its error
// at 160 steps small) and a linear system with a known solution (steady integrators: the
// observer receives that solution). An integrator that accepts neither (its model family is
// defined outside the core) is reported as such, in `skipped`.
std::vector<std::string> integrator_problems(const std::string& name, const Settings& s,
                                             std::string& skipped);

// What a model promises before anything runs, checked on the core families it offers:
// - an ImexProblem: its layout has components and points; the initial state, of the layout's
//   size, is finite and inside the declared ranges (one range per component, or none); the
//   linear operator is square, of that size, and finite; an exact state (where it gives
//   one) is the initial state at t = 0 and solves u' = Lin u + N(u, t): its time derivative
//   (finite differences around t = 0.003) minus Lin u + N(u, t) is below `tolerance` (at
//   least 1e-8) of the largest of those terms;
// - a LinearProblem: the matrix is finite and square, the right-hand side finite and of its
//   size, form() is the matrix's form, and an exact solution (where it gives one) has that
//   size and a relative residual ||b - A x|| / ||b|| below `tolerance`. The default 1e-3
//   allows the truncation error a PDE's solution leaves on its grid (grid-equations-3d,
//   helmholtz); a model whose exact solution is the discrete one should pass 1e-10.
// A model that offers neither core family is reported in `skipped`. `seed` is the initial
// state's.
std::vector<std::string> model_problems(Model& model, std::string& skipped, double tolerance = 1e-3,
                                        std::uint64_t seed = 0);
std::vector<std::string> model_problems(const std::string& name, const Settings& s,
                                        std::string& skipped, double tolerance = 1e-3);
void check_model(const std::string& name, const Settings& s = {}, double tolerance = 1e-3,
                 std::source_location where = std::source_location::current());

// A run of an integrator as `solvent run` does it, for tests of a model of one's own: no
// logger, observer or timer to write, nothing written to disk by the core. As in `solvent
// run`, every reported state is checked finite and inside the model's ranges (a
// DivergenceError naming step, field and point otherwise), and where the model knows its
// exact solution the observables gain exact_error_max and exact_error_rel_l2.
struct IntegratorRun {
  RunResult result;                      // steps, final time, last solve
  std::int64_t states = 0;               // the states the integrator reported, the initial one included
  std::vector<double> state;             // the last state reported (time steppers)
  std::optional<Vector> solution;        // the solution reported (steady integrators)
  std::vector<Observable> observables;   // reported with the last state or the solution
  // The value of the observable `name` reported last, if any ("exact_error_max").
  std::optional<double> observable(const std::string& name) const;
};

// Runs the installed `integrator` (with its settings `s`) on `model` with the linear solver
// `solver` (its settings `solver_settings`) and the preconditioner `preconditioner` (empty:
// none; left out for a solver that applies none, as `solvent run` does) where the
// integrator needs a solver. Throws what the run throws (DivergenceError, SolverError, ...).
IntegratorRun run_integrator(const std::string& integrator, Model& model, const Settings& s = {},
                             const std::string& solver = "lapack",
                             const Settings& solver_settings = {},
                             const std::string& preconditioner = "",
                             const Settings& preconditioner_settings = {});
// The same on the installed model `model`, made with `model_settings`.
IntegratorRun run_integrator(const std::string& integrator, const std::string& model,
                             const Settings& s = {}, const Settings& model_settings = {},
                             const std::string& solver = "lapack",
                             const Settings& solver_settings = {},
                             const std::string& preconditioner = "",
                             const Settings& preconditioner_settings = {});

// Runs an ImexProblem-advancing integrator on a linear test problem u' = Lin u + N(u, t)
// with a known solution and returns the measured order of accuracy in dt.
double measured_time_order(const std::string& integrator, const Settings& s,
                           const std::string& solver = "lapack");

}  // namespace solvent::testkit
