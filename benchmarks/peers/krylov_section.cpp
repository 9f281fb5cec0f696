// Solvent's CPU Krylov solvers against PETSc's on the same operator, right-hand side,
// tolerance and preconditioner (Jacobi): the Helmholtz cabin matrices and the shipped Matrix
// Market example (complex), and a real SPD system in CSR for CG.
#include "peers.hpp"

#include <solvent/conversion.hpp>

#include <cstdio>

namespace peers {
namespace {

constexpr double kTolerance = 1e-9;  // Cheik Ahamed and Magoules' stopping rule
// The two solutions differ by at most cond(A) times the residuals' difference; on these
// systems that stays below this bound (the table shows the actual difference).
constexpr double kAgreement = 1e-5;

struct Pair {
  std::string ours, petsc;  // Solvent's plugin, PETSc's KSP type
  bool spd_only;
};

// PETSc measures its tolerance in the preconditioned norm by default; these options make it
// stop, as Solvent's solvers do, on ||b - A x|| / ||b|| (right preconditioning where the
// method allows it; CG in PETSc is left-preconditioned only, monitored unpreconditioned).
std::string same_stopping_rule(const std::string& ksp) {
  return ksp == "cg" ? "-ksp_norm_type unpreconditioned"
                     : "-ksp_pc_side right -ksp_norm_type unpreconditioned";
}

template <class T>
void compare(const Options& o, Checks& checks, const System<T>& s, const Pair& p) {
  const bool complex = std::is_same_v<T, solvent::complex>;
  const Contender ours{p.ours + " + jacobi",
                       p.ours,
                       {{"tolerance", kTolerance}, {"max_iterations", std::int64_t(1000)}},
                       "jacobi"};
  const Contender petsc{"PETSc " + p.petsc + " + jacobi",
                        complex ? "petsc-complex" : "petsc",
                        {{"ksp_type", p.petsc},
                         {"pc_type", std::string("jacobi")},
                         {"tolerance", kTolerance},
                         {"max_iterations", std::int64_t(1000)},
                         {"options", same_stopping_rule(p.petsc)}},
                        ""};
  const auto a = measure(ours, s, o.repeats, o.budget_s);
  const auto b = measure(petsc, s, o.repeats, o.budget_s);
  const std::size_t n = solvent::rows_of(*s.op);
  if (!b.ran) {
    std::printf(
        "| %s | %zu | %s | %lld | - | %.1e | - | %.3g | - | %.4g | - | %.4g | - | - | - | %s |\n",
        s.name.c_str(), n, p.ours.c_str(), static_cast<long long>(a.stats.iterations), a.residual,
        a.setup_s, a.solve_s, a.ms_per_iteration(), b.skipped.c_str());
    return;
  }
  const double diff = relative_difference(a.x, b.x);
  const std::string what = s.name + ", " + p.ours + " against PETSc " + p.petsc;
  // Solvent's solvers confirm convergence on the true residual; PETSc's stop on the norm
  // they monitor (TFQMR: an estimate), so its true residual is printed, not asserted.
  bool ok = checks.expect(a.stats.converged && a.residual <= 1.5 * kTolerance,
                          what + ": ours did not converge (" + a.stats.status + ")");
  ok = checks.expect(b.stats.converged,
                     what + ": PETSc did not converge (" + b.stats.status + ")") &&
       ok;
  ok = checks.expect(diff <= kAgreement, what + ": solutions differ by more than 1e-5") && ok;
  std::printf(
      "| %s | %zu | %s | %lld | %lld | %.1e | %.1e | %.3g | %.3g | %.4g | %.4g | %.4g | %.4g | "
      "**%.2f** | %.2f | %.1e%s |\n",
      s.name.c_str(), n, p.ours.c_str(), static_cast<long long>(a.stats.iterations),
      static_cast<long long>(b.stats.iterations), a.residual, b.residual, a.setup_s, b.setup_s,
      a.solve_s, b.solve_s, a.ms_per_iteration(), b.ms_per_iteration(),
      a.ms_per_iteration() / b.ms_per_iteration(),
      (a.setup_s + a.solve_s) / (b.setup_s + b.solve_s), diff, ok ? "" : " FAILED");
  std::fflush(stdout);
}

template <class T>
void compare_all(const Options& o, Checks& checks, const System<T>& s, bool spd) {
  for (const Pair& p :
       {Pair{"bicgstab", "bcgs", false}, Pair{"tfqmr", "tfqmr", false}, Pair{"cg", "cg", true}})
    if (spd || !p.spd_only) compare(o, checks, s, p);
}

}  // namespace

void krylov_section(const Options& o, Checks& checks) {
  std::printf(
      "\n### Krylov solvers against PETSc, Jacobi, tolerance %.0e on ||b - Ax|| / ||b||\n\n"
      "Setup once (operator and preconditioner); solve: median of up to %d solves from x = 0 "
      "after a warm-up (within %.0f s per contender). residual: ||b - Ax|| / ||b|| recomputed "
      "here. ratio = ours / PETSc (total: setup + solve). diff = ||x_ours - x_PETSc|| / "
      "||x_PETSc|| (checked <= %.0e).\n\n",
      kTolerance, o.repeats, o.budget_s, kAgreement);
  std::printf(
      "| system | n | method | iterations | PETSc iterations | residual | PETSc residual | setup s "
      "| "
      "PETSc setup s | solve s | PETSc solve s | ms/iteration | PETSc ms/iteration | ratio per "
      "iteration | ratio total | diff |\n| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | "
      "---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  {
    auto model = solvent::plugins::make_model("matrix-file", {{"matrix", o.matrix_file},
                                                              {"rhs", std::string("product")},
                                                              {"solution", std::string("ones")}});
    compare_all(
        o, checks,
        System<solvent::complex>{"helmholtz-duct.mtx", model->linear()->matrix(),
                                 std::get<std::vector<solvent::complex>>(model->linear()->rhs())},
        false);
  }
  for (const auto r : o.cabin) compare_all(o, checks, cabin(r), false);
  {
    const std::int64_t n = o.poisson_csr;
    auto model =
        solvent::plugins::make_model("grid-equations-3d", {{"n1", n}, {"n2", n}, {"n3", n}});
    // In CSR, so that both sides multiply by the same storage (Solvent's solvers would
    // otherwise apply the seven-point stencil directly and PETSc an assembled AIJ matrix).
    auto csr = std::make_shared<const solvent::Operator>(
        solvent::convert(*model->linear()->matrix(), solvent::OperatorKind::Csr, {}).op);
    compare_all(o, checks,
                System<double>{"poisson-" + std::to_string(n) + "^3 (CSR)", csr,
                               std::get<std::vector<double>>(model->linear()->rhs())},
                true);
  }
}

}  // namespace peers
