// MATM against PETSc's algebraic multigrid (its own GAMG and hypre's BoomerAMG) on the
// grid-equations-3d systems of the MATM benchmark: time to ||Ax - f|| / ||f|| <= 1e-8 from
// x = 0. The convection-diffusion operator is not symmetric, so PETSc runs BiCGSTAB and
// GMRES there instead of CG.
#include "peers.hpp"

#include <cstdio>

namespace peers {
namespace {

constexpr double kTolerance = 1e-8;  // the MATM benchmark's
// The solutions are compared with each other and with the manufactured solution; both
// solves stop at 1e-8, and on these grids (condition numbers up to about 1e4) that leaves
// the solutions this close.
constexpr double kAgreement = 1e-4;

Contender petsc(const std::string& ksp, const std::string& amg, bool symmetric) {
  // GAMG is PETSc's own smoothed aggregation; BoomerAMG is hypre's classical AMG, with its
  // defaults. GAMG's defaults (smoothed prolongation, Chebyshev smoothing on eigenvalue
  // estimates) assume a symmetric operator: on convection-diffusion they broke down (bcgs)
  // or stalled (gmres, 2000 iterations at 32^3), so there it aggregates the symmetrised graph
  // without smoothing the prolongation and smooths with SOR, as PETSc's manual advises for
  // nonsymmetric problems. The KSP stops on the unpreconditioned residual, as MATM does.
  std::string options =
      (ksp == "cg" ? "" : "-ksp_pc_side right ") + std::string("-ksp_norm_type unpreconditioned");
  if (amg == "boomeramg")
    options += " -pc_hypre_type boomeramg";
  else if (!symmetric)
    options +=
        " -pc_gamg_sym_graph true -pc_gamg_agg_nsmooths 0 -mg_levels_ksp_type richardson "
        "-mg_levels_pc_type sor";
  return {"PETSc " + ksp + " + " + amg,
          "petsc",
          {{"ksp_type", ksp},
           {"pc_type", std::string(amg == "gamg" ? "gamg" : "hypre")},
           {"tolerance", kTolerance},
           {"max_iterations", std::int64_t(2000)},
           {"options", options}},
          ""};
}

double error_max(solvent::Model& m, const std::vector<double>& x) {
  for (const auto& o : m.linear()->observables(solvent::Vector(x)))
    if (o.name == "error_max") return o.value;
  return NAN;
}

}  // namespace

void multigrid_section(const Options& o, Checks& checks) {
  std::printf(
      "\n### MATM against PETSc + algebraic multigrid, tolerance %.0e on ||Ax - f|| / ||f||\n\n"
      "Setup once; solve: median of up to %d solves from x = 0 after a warm-up (within %.0f s "
      "per contender). total = setup + solve; ratio = MATM's total / the row's total (above 1: "
      "the row is faster). error = max |x - u_exact| against the manufactured solution; diff = "
      "||x - x_MATM|| / ||x_MATM|| (checked <= %.0e).\n\n",
      kTolerance, o.repeats, o.budget_s, kAgreement);
  std::printf(
      "| problem | grid | solver | iterations | setup s | solve s | total s | MATM total / total | "
      "residual | error | diff |\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | "
      "---: | ---: |\n");
  for (const bool convection : {false, true})
    for (const auto n : o.grid) {
      solvent::plugins::Settings s{{"n1", n}, {"n2", n}, {"n3", n}};
      if (convection) {
        s["problem"] = std::string("convection-diffusion");
        s["velocity"] = std::string("rotating");
        s["peclet"] = 100.0;
      }
      auto model = solvent::plugins::make_model("grid-equations-3d", s);
      const System<double> sys{std::to_string(n) + "^3", model->linear()->matrix(),
                               std::get<std::vector<double>>(model->linear()->rhs())};
      const std::string problem =
          convection ? "convection-diffusion (rotating, Pe 100)" : "poisson";
      std::vector<Contender> contenders = {
          {"matm",
           "matm",
           {{"tolerance", kTolerance}, {"max_iterations", std::int64_t(20000)}},
           ""}};
      for (const std::string& ksp :
           convection ? std::vector<std::string>{"bcgs", "gmres"} : std::vector<std::string>{"cg"})
        for (const std::string amg : {"gamg", "boomeramg"})
          contenders.push_back(petsc(ksp, amg, !convection));
      std::vector<double> reference;
      double matm_total = 0;
      for (const auto& c : contenders) {
        const auto r = measure(c, sys, o.repeats, o.budget_s);
        if (!r.ran) {
          std::printf("| %s | %s | %s | skipped: %s |\n", problem.c_str(), sys.name.c_str(),
                      c.label.c_str(), r.skipped.c_str());
          continue;
        }
        const double total = r.setup_s + r.solve_s;
        if (reference.empty()) {
          reference = r.x;
          matm_total = total;
        }
        const double diff = relative_difference(r.x, reference);
        const std::string what = problem + " " + sys.name + ", " + c.label;
        bool ok = checks.expect(r.stats.converged && r.residual <= 1.5 * kTolerance,
                                what + ": not converged to the tolerance (" + r.stats.status + ")");
        ok = checks.expect(diff <= kAgreement, what + ": differs from MATM's solution") && ok;
        std::printf("| %s | %s | %s | %lld | %.3g | %.3g | %.3g | %.2f | %.1e | %.2e | %.1e%s |\n",
                    problem.c_str(), sys.name.c_str(), c.label.c_str(),
                    static_cast<long long>(r.stats.iterations), r.setup_s, r.solve_s, total,
                    matm_total / total, r.residual, error_max(*model, r.x), diff,
                    ok ? "" : " FAILED");
        std::fflush(stdout);
      }
    }
}

}  // namespace peers
