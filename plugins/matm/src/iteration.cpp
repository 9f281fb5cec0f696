#include <solvent_matm/iteration.hpp>

#include <solvent/errors.hpp>

#include <fmt/format.h>

#include <cmath>
#include <sstream>

namespace solvent::matm {
namespace {

std::string number(double v) {
  std::ostringstream s;
  s.precision(6);
  s << v;
  return s.str();
}

// All of them, so that the one that broke down is seen beside the others.
std::string dots_text(const Dots& d) {
  return "(D w, w) = " + number(d.d_w_w) + ", (D^-1 R2 w, R2 w) = " + number(d.r2_w) +
         ", (A0 w, w) = " + number(d.a0_w_w) + ", (B w, w) = " + number(d.b_w_w) +
         ", (B^-1 A0 w, A0 w) = " + number(d.binv_a0) + ", (B^-1 A1 w, A1 w) = " +
         number(d.binv_a1);
}

}  // namespace

Schema iteration_schema() {
  return {
      ParamSpec::real("tolerance", 1e-8, "stop when ||A x - f|| / ||f|| falls to this").above(0.0),
      ParamSpec::integer("max_iterations", 1000, "stop unconverged after this many iterations")
          .at_least(0.0),
      ParamSpec::real(
          "omega0", 0.0,
          "w of the first iteration; 0 takes the w~ formula of eq. (5) on the first residual")
          .at_least(0.0),
      ParamSpec::choice(
          "parameters", "variational", {"variational", "given"},
          "variational: w and tau of every iteration from the inner products of eq. (5); "
          "given: the fixed omega and tau below, no inner product but the residual's (about "
          "half the operations of an iteration: operations_per_node in the record)"),
      ParamSpec::real("omega", 0.0, "with parameters = \"given\": the w of the preconditioner")
          .at_least(0.0),
      ParamSpec::real("tau", 0.0, "with parameters = \"given\": the step x <- x - tau w")
          .at_least(0.0),
  };
}

ParamSpec fragments_parameter() {
  return ParamSpec::integer("fragments", 0,
                            "over several ranks, the pieces of axis 1 each triangular sweep "
                            "is pipelined in (at most one per 32 nodes of axis 1); 0: matm "
                            "chooses them after the first iteration from the ranks' measured "
                            "links, matm-cuda takes four per rank the sweep passes through")
      .at_least(0.0)
      .at_most(1 << 20);
}

ParamSpec coupling_parameter() {
  return ParamSpec::choice(
      "coupling", "pipeline", {"pipeline", "block"},
      "over several ranks: \"pipeline\", the preconditioner of the whole grid, its sweeps "
      "pipelined from rank to rank (the one-rank iterates); \"block\", the couplings across "
      "the ranks' boundaries left out of the preconditioner, so every rank sweeps its block at "
      "once (more iterations, no wait for a neighbour)");
}

IterationSettings iteration_settings(const solvent::Parameters& p, const std::string& solver) {
  IterationSettings s;
  s.tolerance = p.real("tolerance");
  s.max_iterations = p.integer("max_iterations");
  s.omega0 = p.real("omega0");
  s.given = p.string("parameters") == "given";
  s.omega = p.real("omega");
  s.tau = p.real("tau");
  // A key that would be ignored is refused rather than silently dropped.
  if (s.given && !(s.omega > 0.0 && s.tau > 0.0))
    throw ConfigError({solver + ": parameters = \"given\" needs omega > 0 and tau > 0 (got "
                       "omega = " + number(s.omega) + ", tau = " + number(s.tau) + ")"});
  if (!s.given && (p.given("omega") || p.given("tau")))
    throw ConfigError({solver + ": omega and tau are read only with parameters = \"given\" "
                       "(the variational iteration computes its own)"});
  if (s.given && p.given("omega0"))
    throw ConfigError({solver + ": omega0 is the first w of the variational iteration; with "
                       "parameters = \"given\" every iteration takes omega"});
  return s;
}

// Counted from split_operator.hpp, per active node (a multiply-add is two operations):
//   UpdatedValues x - tau w                                                    2
//   apply_node: symmetric_products (3 + 3 products summed, a0 and r2: 18), the skew part
//     (6 products summed: 12, non-self-adjoint only); r = a0 + a1 - f (2); (r, r) (2)
//                                                                         22 or 34
//   sweep_factors (1 / ((1 + w/2) c0): 4; w times it: 1; q0, a_y, a_z, beta: 4), sweep_node
//     (two multiply-adds: 4) and the recurrence q + beta y (2): 15; the upper sweep's source
//     c0 y adds 1                                                              15 + 16
//   the inner products of eq. (5): A0 w (A1 w) by apply_node (18 or 30), ProductSums (10),
//     the lower sweep of A0 w with (D y, y) (15 + 3), of A1 w (18, non-self-adjoint)
//                                                                         46 or 76
OperationCount operations_per_node(bool given, bool self_adjoint) {
  OperationCount c;
  c.update = 2;
  c.residual = self_adjoint ? 22 : 34;
  c.sweeps = 15 + 16;
  if (!given) c.inner_products = self_adjoint ? 18 + 10 + 18 : 30 + 10 + 18 + 18;
  return c;
}

Outcome iterate(MatmBackend& backend, const IterationSettings& s) {
  Outcome o;
  o.self_adjoint = backend.self_adjoint();
  SolveStats& st = o.stats;
  // Relative to ||f||; for f = 0 (solution 0) the absolute residual is all there is.
  const double f_norm = std::sqrt(backend.rhs_norm2());
  const double scale = f_norm > 0.0 ? f_norm : 1.0;
  double tau = 0.0;
  double omega = s.omega0;
  for (std::int64_t it = 0;; ++it) {
    const double res = std::sqrt(backend.update_and_residual(tau)) / scale;
    st.iterations = it;
    st.residual = res;
    st.residual_history.push_back(res);
    if (s.on_iteration) s.on_iteration(it, res);
    if (!std::isfinite(res)) {
      st.status = "breakdown: non-finite residual";
      break;
    }
    if (res <= s.tolerance) {
      st.converged = true;
      st.status = "converged";
      break;
    }
    if (it >= s.max_iterations) {
      st.status = "max_iterations";
      break;
    }
    if (s.given) {
      backend.precondition(s.omega);
      o.last.omega = o.last.omega_next = s.omega;
      o.last.tau = tau = s.tau;
      o.last.valid = true;
      continue;
    }
    if (it == 0 && omega <= 0.0) {
      omega = backend.omega_from_residual();
      if (!(omega > 0.0 && std::isfinite(omega))) {
        st.status = "breakdown: no w from the first residual ((D^-1 R2 r, R2 r) = 0)";
        break;
      }
    }
    const Dots d = backend.correction(omega);
    const StepParameters p = iteration_parameters(d, omega);
    if (!p.valid) {
      st.status = d.a0_w_w <= 0.0
                      ? "breakdown: (A0 w, w) <= 0, the symmetric part of the operator is not "
                        "positive definite"
                      : "breakdown: an inner product of eq. (5) is not positive and finite (w = " +
                            number(omega) + "; " + dots_text(d) + ")";
      break;
    }
    o.last = p;
    tau = p.tau;
    omega = p.omega_next;
  }
  return o;
}

Facts outcome_facts(const Outcome& o, const IterationSettings& s) {
  const OperationCount c = operations_per_node(s.given, o.self_adjoint);
  Facts f{{"parameters", s.given ? "given" : "variational"},
          {"iterations", std::to_string(o.stats.iterations)},
          {"relative_residual", number(o.stats.residual)},
          {"status", o.stats.status},
          {"omega", number(o.last.omega)}};
  // With given parameters there is no s, k or theta: nothing estimates them.
  if (!s.given) {
    f.push_back({"s", number(std::sqrt(o.last.s2))});
    f.push_back({"k", number(std::sqrt(o.last.k2))});
    f.push_back({"theta", number(o.last.theta)});
  }
  f.push_back({"tau", number(o.last.tau)});
  f.push_back({"operations_per_node",
               fmt::format("{} (update {}, residual {}, sweeps {}, inner products {})", c.total(),
                           c.update, c.residual, c.sweeps, c.inner_products)});
  return f;
}

}  // namespace solvent::matm
