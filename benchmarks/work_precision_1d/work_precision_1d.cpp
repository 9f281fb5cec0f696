// work-precision-1d: the default 1D experiment (angiogenesis-1d, M = 400, julia parameters,
// t = 0 to 1) integrated by Solvent's fixed-step IMEX integrators (imex-trapezoid,
// imex-cnab2, imex-sbdf2 at halving dt), its adaptive imex-ark23 and SUNDIALS ARKODE's
// ARKStep with the same additive Runge–Kutta pair (ARK3(2)4L[2]SA, ARKStepSetOrder 3) at the
// same tolerances (rtol = atol = tol), each on one core with a banded direct solver: the
// error at t = 1 against a reference run (imex-ark23 at rtol = atol = 1e-10; ARKODE's run at
// that tolerance is printed beside it) against the wall time and against the counts of
// right-hand-side evaluations and linear solves.
//
// Like for like: Solvent runs `banded` (LAPACK gbtrf/gbtrs on the model's band ordering)
// without the core's residual check; ARKODE gets the same ordering (its state vector is the
// model's state permuted, so its Jacobian Lin is banded, 2 sub- and 2 super-diagonals), its
// band matrix and band solver, the constant Jacobian through ARKStepSetJacFn and
// ARKStepSetLinear (one Newton iteration per stage). Its right-hand sides permute to the
// model's order and back around the model's functions (two copies of the state per
// explicit evaluation; Lin it applies in its own order). Solvent's integrators report every
// step to an observer that keeps the last state (the model's observables are made, as in a
// run) and project negative densities to zero, as a run does; ARKODE does neither. The wall
// time of a row is the best of --repeat runs, from the integrator's set-up to t = 1.
//
//   work-precision-1d [--M 400] [--tolerances 1e-3,1e-4,1e-5] [--dts 0.01,0.005,...]
//                     [--repeat 3] [--csv FILE] [--markdown FILE]
#include <solvent/plugin_factory.hpp>
#include <solvent/solvent.hpp>
#include <solvent_test/reference_kernels.hpp>

#include <arkode/arkode_arkstep.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_band.h>
#include <sunmatrix/sunmatrix_band.h>
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace {

namespace pf = solvent::plugins;
using Clock = std::chrono::steady_clock;

struct Options {
  std::int64_t m = 400;
  std::vector<double> tolerances{1e-3, 1e-4, 1e-5};
  std::vector<double> dts{0.01, 0.005, 0.0025, 0.00125, 0.000625};
  int repeat = 3;
  std::string csv, markdown;
};

Options parse(int argc, char** argv) {
  Options o;
  CLI::App app("work-precision-1d: Solvent's IMEX integrators against ARKODE on the 1D model");
  app.add_option("--M", o.m, "grid points")->check(CLI::PositiveNumber);
  app.add_option("--tolerances", o.tolerances, "rtol = atol of the adaptive runs")->delimiter(',');
  app.add_option("--dts", o.dts, "steps of the fixed-step runs")->delimiter(',');
  app.add_option("--repeat", o.repeat, "runs of each row; the best counts")
      ->check(CLI::PositiveNumber);
  app.add_option("--csv", o.csv, "write the rows as CSV here");
  app.add_option("--markdown", o.markdown, "write the table here");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::exit(app.exit(e));
  }
  return o;
}

struct Row {
  std::string method, setting;
  double error = 0, wall_s = 0;
  std::int64_t steps = 0, rejected = 0, rhs = 0, solves = 0, setups = 0;
};

class LastState : public solvent::Observer {
 public:
  void on_step(const solvent::StepInfo&, std::span<const double> u,
               std::span<const solvent::Observable>) override {
    state.assign(u.begin(), u.end());
  }
  std::vector<double> state;
};

std::shared_ptr<solvent::Model> model_of(const Options& o) {
  return pf::make_model("angiogenesis-1d", {{"M", o.m}, {"parameter_set", std::string("julia")}});
}

std::int64_t fact(const solvent::Facts& facts, const std::string& key) {
  for (const auto& [k, v] : facts)
    if (k == key) return std::stoll(v);
  throw std::runtime_error("no fact " + key);
}

// One Solvent run to t = 1: its final state, wall time and counts in `row`.
std::vector<double> run_solvent(const Options& o, const std::string& integrator,
                                const pf::Settings& settings, Row& row) {
  std::vector<double> state;
  row.wall_s = std::numeric_limits<double>::infinity();
  for (int r = 0; r < o.repeat; ++r) {
    auto model = model_of(o);
    auto integ = pf::make_integrator(integrator, settings);
    auto solver = pf::make_linear_solver("banded");
    solvent::SolverPolicy policy;
    policy.verify_residual = false;
    solver->set_policy(policy);
    LastState obs;
    solvent::PhaseTimer timer;
    solvent::RunContext ctx;
    ctx.observer = &obs;
    ctx.timer = &timer;
    const auto start = Clock::now();
    const auto result = integ->run(*model, solver.get(), ctx);
    row.wall_s = std::min(row.wall_s, std::chrono::duration<double>(Clock::now() - start).count());
    state = obs.state;
    if (integrator == "imex-ark23") {
      const auto facts = integ->facts();
      row.steps = fact(facts, "accepted_steps");
      row.rejected = fact(facts, "rejected_steps") + fact(facts, "failed_steps");
      row.rhs = fact(facts, "rhs_evaluations");
      row.solves = fact(facts, "linear_solves");
      row.setups = fact(facts, "solver_setups");
    } else {
      // One explicit evaluation and one solve a step; SBDF2 and the trapezoid schemes set
      // the solver up once (SBDF2 twice: its first step is backward Euler).
      row.steps = result.steps;
      row.rhs = result.steps;
      row.solves = result.steps;
      row.setups = integrator == "imex-sbdf2" ? 2 : 1;
    }
  }
  return state;
}

// ARKODE's view of the model: the state in the band ordering p (y[k] = u[p[k]]).
struct ArkodeProblem {
  const solvent::ImexProblem* problem = nullptr;
  std::vector<std::int32_t> order;  // p: new index -> model index
  solvent::CsrMatrix<double> lin;   // Lin in the band ordering
  std::vector<double> u, out;       // the model's order, for its explicit term
};

int explicit_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void* data) {
  auto& a = *static_cast<ArkodeProblem*>(data);
  const double* yv = N_VGetArrayPointer(y);
  double* dv = N_VGetArrayPointer(ydot);
  for (std::size_t k = 0; k < a.order.size(); ++k) a.u[std::size_t(a.order[k])] = yv[k];
  a.problem->explicit_term(t, a.u, a.out);
  for (std::size_t k = 0; k < a.order.size(); ++k) dv[k] = a.out[std::size_t(a.order[k])];
  return 0;
}

int implicit_rhs(sunrealtype, N_Vector y, N_Vector ydot, void* data) {
  const auto& lin = static_cast<ArkodeProblem*>(data)->lin;
  const double* yv = N_VGetArrayPointer(y);
  double* dv = N_VGetArrayPointer(ydot);
  for (std::size_t i = 0; i < lin.rows; ++i) {
    double s = 0.0;
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k)
      s += lin.values[k] * yv[lin.col_idx[k]];
    dv[i] = s;
  }
  return 0;
}

int jacobian(sunrealtype, N_Vector, N_Vector, SUNMatrix j, void* data, N_Vector, N_Vector,
             N_Vector) {
  const auto& lin = static_cast<ArkodeProblem*>(data)->lin;
  SUNMatZero(j);
  for (std::size_t i = 0; i < lin.rows; ++i)
    for (auto k = lin.row_ptr[i]; k < lin.row_ptr[i + 1]; ++k)
      SM_ELEMENT_B(j, sunindextype(i), sunindextype(lin.col_idx[k])) = lin.values[k];
  return 0;
}

void check(int flag, const char* call) {
  if (flag < 0) throw std::runtime_error(fmt::format("{} failed with flag {}", call, flag));
}

// One ARKStep run to t = 1 at rtol = atol = tol: the final state in the model's order.
std::vector<double> run_arkode(const Options& o, double tol, Row& row) {
  std::vector<double> state;
  row.wall_s = std::numeric_limits<double>::infinity();
  for (int r = 0; r < o.repeat; ++r) {
    auto model = model_of(o);
    auto& problem = *model->imex();
    const std::size_t n = problem.layout().size();
    ArkodeProblem a;
    a.problem = &problem;
    a.order = problem.band_ordering();
    a.u.resize(n);
    a.out.resize(n);
    std::vector<double> u0(n);
    problem.initial_state(u0, 0);
    const auto start = Clock::now();
    // Lin permuted: row k of the new order is row p[k], its columns renumbered.
    std::vector<std::int32_t> inverse(n);
    for (std::size_t k = 0; k < n; ++k) inverse[std::size_t(a.order[k])] = std::int32_t(k);
    const auto lin = problem.linear_operator();
    a.lin.rows = a.lin.cols = n;
    a.lin.row_ptr.push_back(0);
    sunindextype upper = 0, lower = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const auto i = std::size_t(a.order[k]);
      for (auto e = lin.row_ptr[i]; e < lin.row_ptr[i + 1]; ++e) {
        const auto col = inverse[std::size_t(lin.col_idx[e])];
        a.lin.col_idx.push_back(col);
        a.lin.values.push_back(lin.values[e]);
        upper = std::max<sunindextype>(upper, col - sunindextype(k));
        lower = std::max<sunindextype>(lower, sunindextype(k) - col);
      }
      a.lin.row_ptr.push_back(std::int32_t(a.lin.values.size()));
    }
    SUNContext ctx = nullptr;
    check(SUNContext_Create(nullptr, &ctx), "SUNContext_Create");
    N_Vector y = N_VNew_Serial(sunindextype(n), ctx);
    double* yv = N_VGetArrayPointer(y);
    for (std::size_t k = 0; k < n; ++k) yv[k] = u0[std::size_t(a.order[k])];
    void* mem = ARKStepCreate(explicit_rhs, implicit_rhs, 0.0, y, ctx);
    if (mem == nullptr) throw std::runtime_error("ARKStepCreate failed");
    SUNMatrix j = SUNBandMatrix(sunindextype(n), upper, lower, ctx);
    SUNLinearSolver ls = SUNLinSol_Band(y, j, ctx);
    check(ARKStepSetUserData(mem, &a), "ARKStepSetUserData");
    check(ARKStepSStolerances(mem, tol, tol), "ARKStepSStolerances");
    check(ARKStepSetOrder(mem, 3), "ARKStepSetOrder");
    check(ARKStepSetLinearSolver(mem, ls, j), "ARKStepSetLinearSolver");
    check(ARKStepSetJacFn(mem, jacobian), "ARKStepSetJacFn");
    check(ARKStepSetLinear(mem, 0), "ARKStepSetLinear");
    check(ARKStepSetMaxNumSteps(mem, 10000000), "ARKStepSetMaxNumSteps");
    check(ARKStepSetStopTime(mem, 1.0), "ARKStepSetStopTime");
    sunrealtype t = 0.0;
    check(ARKStepEvolve(mem, 1.0, y, &t, ARK_NORMAL), "ARKStepEvolve");
    row.wall_s = std::min(row.wall_s, std::chrono::duration<double>(Clock::now() - start).count());
    long steps = 0, fails = 0, nfe = 0, nfi = 0, setups = 0, iters = 0;
    check(ARKStepGetNumSteps(mem, &steps), "ARKStepGetNumSteps");
    check(ARKStepGetNumErrTestFails(mem, &fails), "ARKStepGetNumErrTestFails");
    check(ARKStepGetNumRhsEvals(mem, &nfe, &nfi), "ARKStepGetNumRhsEvals");
    check(ARKStepGetNumLinSolvSetups(mem, &setups), "ARKStepGetNumLinSolvSetups");
    check(ARKStepGetNumNonlinSolvIters(mem, &iters), "ARKStepGetNumNonlinSolvIters");
    row.steps = steps;
    row.rejected = fails;
    row.rhs = nfe;
    row.solves = iters;
    row.setups = setups;
    state.assign(n, 0.0);
    for (std::size_t k = 0; k < n; ++k) state[std::size_t(a.order[k])] = yv[k];
    ARKStepFree(&mem);
    SUNLinSolFree(ls);
    SUNMatDestroy(j);
    N_VDestroy(y);
    SUNContext_Free(&ctx);
  }
  return state;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  std::vector<Row> rows;
  Row ref_row{"imex-ark23", "reference tol 1e-10"};
  const auto reference = run_solvent(
      o, "imex-ark23", {{"dt", 1.0}, {"steps", std::int64_t{1}}, {"rtol", 1e-10}, {"atol", 1e-10}},
      ref_row);
  Row ark_ref{"arkode-arkstep", "reference tol 1e-10"};
  ark_ref.error = solvent::test::max_relative_difference(run_arkode(o, 1e-10, ark_ref), reference);
  fmt::print(stderr, "reference: imex-ark23 and ARKODE at tol 1e-10 differ by {:.2e}\n",
             ark_ref.error);

  for (const std::string integrator : {"imex-trapezoid", "imex-cnab2", "imex-sbdf2"})
    for (double dt : o.dts) {
      Row row{integrator, fmt::format("dt {:g}", dt)};
      const auto steps = std::int64_t(std::llround(1.0 / dt));
      row.error = solvent::test::max_relative_difference(
          run_solvent(o, integrator, {{"dt", dt}, {"steps", steps}}, row), reference);
      rows.push_back(row);
    }
  for (double tol : o.tolerances) {
    Row ours{"imex-ark23", fmt::format("tol {:g}", tol)};
    ours.error = solvent::test::max_relative_difference(
        run_solvent(o, "imex-ark23",
                    {{"dt", 1.0}, {"steps", std::int64_t{1}}, {"rtol", tol}, {"atol", tol}}, ours),
        reference);
    rows.push_back(ours);
    Row theirs{"arkode-arkstep", fmt::format("tol {:g}", tol)};
    theirs.error = solvent::test::max_relative_difference(run_arkode(o, tol, theirs), reference);
    rows.push_back(theirs);
  }

  std::string csv = "method,setting,error_at_t1,wall_s,steps,rejected,rhs_evals,solves,setups\n";
  std::string md =
      "| method | setting | error at t = 1 | wall (ms) | steps | rejected | RHS evals | solves | "
      "set-ups |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    csv += fmt::format("{},{},{:.6e},{:.6e},{},{},{},{},{}\n", r.method, r.setting, r.error,
                       r.wall_s, r.steps, r.rejected, r.rhs, r.solves, r.setups);
    md +=
        fmt::format("| {} | {} | {:.2e} | {:.2f} | {} | {} | {} | {} | {} |\n", r.method, r.setting,
                    r.error, 1e3 * r.wall_s, r.steps, r.rejected, r.rhs, r.solves, r.setups);
  }
  fmt::print("{}", md);
  if (!o.csv.empty()) std::ofstream(o.csv) << csv;
  if (!o.markdown.empty()) std::ofstream(o.markdown) << md;
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "work-precision-1d: {}\n", e.what());
  return 1;
}
