#include <solvent_krylov/options.hpp>

namespace solvent::krylov {

namespace {
// The keys every method shares; each method words the two that mean something different
// for it, so `solvent describe` shows each only its own text.
Schema common_schema(const char* max_iterations_doc, const char* preconditioner_doc) {
  return {
      ParamSpec::real("tolerance", 1e-9, "relative residual ||b - Ax|| / ||b|| to reach")
          .above(0.0),
      ParamSpec::integer("max_iterations", 1000, max_iterations_doc).at_least(1),
      ParamSpec::choice("preconditioner", "jacobi", {"none", "jacobi"}, preconditioner_doc),
      ParamSpec::choice("initial_guess", "zero", {"zero", "given"},
                        "zero, or given: start from the x passed to solve()"),
      ParamSpec::integer("stagnation_window", 300,
                         "stop with status 'stagnation' after this many iterations without a new "
                         "smallest residual")
          .at_least(1),
  };
}

constexpr const char* right_jacobi =
    "none, or jacobi (diagonal scaling, applied on the right, so the residual the method "
    "monitors is the true one)";
}  // namespace

Schema krylov_schema() { return common_schema("iterations before giving up", right_jacobi); }

Schema cg_schema() {
  return common_schema("iterations before giving up",
                       "none, or jacobi (diagonal scaling inside the iteration, z = D^-1 r, which "
                       "keeps the preconditioned operator Hermitian)");
}

Schema krylov_schema_with_degree() {
  Schema s = common_schema(
      "cycles before giving up (one cycle: l BiCG steps and a minimal-residual update)",
      right_jacobi);
  s.push_back(ParamSpec::integer("l", 8, "degree of the minimal-residual polynomial per cycle")
                  .at_least(1)
                  .at_most(16));
  return s;
}

KrylovOptions read_krylov_options(const Parameters& p) {
  KrylovOptions o;
  o.tolerance = p.real("tolerance");
  o.max_iterations = p.integer("max_iterations");
  o.jacobi = p.string("preconditioner") == "jacobi";
  o.use_initial_guess = p.string("initial_guess") == "given";
  o.stagnation_window = p.integer("stagnation_window");
  if (p.has("l")) o.degree = static_cast<int>(p.integer("l"));
  return o;
}

}  // namespace solvent::krylov
