// Which preconditioner first makes Solvent's BiCGSTAB and TFQMR converge on the largest
// cabin matrix this machine solves in minutes, where Jacobi leaves both at the iteration
// limit: Jacobi, then PETSc's ILU(0), additive Schwarz and a complete LU (MUMPS), the last
// three through the petsc-pc-complex bridge. One solve each (the question is whether and in
// how many iterations, not a median).
#include "peers.hpp"

#include <cstdio>

namespace peers {

void search_section(const Options& o, Checks& checks) {
  const auto sys = cabin(o.search_cabin);
  constexpr double kTolerance = 1e-9;
  std::printf(
      "\n### Preconditioners for BiCGSTAB and TFQMR on %s (n = %zu), tolerance %.0e, at most "
      "1000 iterations\n\nOne solve from x = 0 each; setup includes the preconditioner's.\n\n",
      sys.name.c_str(), solvent::rows_of(*sys.op), kTolerance);
  std::printf(
      "| method | preconditioner | status | iterations | residual | setup s | solve s | ms/iteration "
      "|\n| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  struct Pc {
    std::string label, plugin;
    Settings settings;
  };
  // On one rank additive Schwarz would be a single block, i.e. ILU(0) again: 16 blocks
  // (PETSc's default overlap 1, ILU(0) in each) make it a different preconditioner.
  const std::vector<Pc> pcs = {
      {"jacobi", "jacobi", {}},
      {"PETSc ilu(0)", "petsc-pc-complex", {{"pc_type", std::string("ilu")}}},
      {"PETSc asm, 16 blocks, ilu(0)",
       "petsc-pc-complex",
       {{"pc_type", std::string("asm")}, {"options", std::string("-pc_asm_blocks 16")}}},
      {"PETSc lu (MUMPS)",
       "petsc-pc-complex",
       {{"pc_type", std::string("lu")}, {"factor_solver_type", std::string("mumps")}}},
  };
  for (const std::string method : {"bicgstab", "tfqmr"}) {
    bool found = false;
    for (const auto& pc : pcs) {
      const Contender c{method + " + " + pc.label, method,
                        {{"tolerance", kTolerance}, {"max_iterations", std::int64_t(1000)}},
                        pc.plugin, pc.settings};
      const auto r = measure(c, sys, 0, 0.0);
      if (!r.ran) {
        std::printf("| %s | %s | skipped: %s | | | | | |\n", method.c_str(), pc.label.c_str(),
                    r.skipped.c_str());
        continue;
      }
      const bool converged = r.stats.converged && r.residual <= 10 * kTolerance;
      // A converged status must be backed by the residual recomputed here.
      checks.expect(!r.stats.converged || converged,
                    sys.name + ", " + c.label + ": converged with a true residual above 10 x tolerance");
      std::printf("| %s | %s | %s%s | %lld | %.1e | %.3g | %.3g | %.4g |\n", method.c_str(),
                  pc.label.c_str(), r.stats.status.c_str(),
                  converged && !found ? " (first to converge)" : "",
                  static_cast<long long>(r.stats.iterations), r.residual, r.setup_s, r.solve_s,
                  r.ms_per_iteration());
      std::fflush(stdout);
      found = found || converged;
    }
  }
}

}  // namespace peers
