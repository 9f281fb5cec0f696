#include <solvent_krylov/options.hpp>

namespace solvent::krylov {

// The preconditioner is not a key here: it is a plugin of its own ([preconditioner]), applied
// on the right by BiCGSTAB, BiCGSTAB(l) and TFQMR and inside the iteration by CG.
Schema krylov_schema() {
  return {
      ParamSpec::real("tolerance", 1e-9, "relative residual ||b - Ax|| / ||b|| to reach")
          .above(0.0),
      ParamSpec::integer("max_iterations", 1000, "iterations before giving up").at_least(1),
      ParamSpec::choice("initial_guess", "zero", {"zero", "given"},
                        "zero, or given: start from the x passed to solve()"),
      ParamSpec::integer("stagnation_window", 300,
                         "stop with status 'stagnation' after this many iterations without a new "
                         "smallest residual")
          .at_least(1),
  };
}

Schema krylov_schema_with_degree() {
  Schema s = krylov_schema();
  s[1] = ParamSpec::integer(
             "max_iterations", 1000,
             "cycles before giving up (one cycle: l BiCG steps and a minimal-residual update)")
             .at_least(1);
  s.push_back(ParamSpec::integer("l", 8, "degree of the minimal-residual polynomial per cycle")
                  .at_least(1)
                  .at_most(16));
  return s;
}

KrylovOptions read_krylov_options(const Parameters& p) {
  KrylovOptions o;
  o.tolerance = p.real("tolerance");
  o.max_iterations = p.integer("max_iterations");
  o.use_initial_guess = p.string("initial_guess") == "given";
  o.stagnation_window = p.integer("stagnation_window");
  if (p.has("l")) o.degree = static_cast<int>(p.integer("l"));
  return o;
}

}  // namespace solvent::krylov
