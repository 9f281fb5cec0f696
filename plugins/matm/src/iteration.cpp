#include <solvent_matm/iteration.hpp>

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
  };
}

ParamSpec fragments_parameter() {
  return ParamSpec::integer("fragments", 0,
                            "over several ranks, the pieces of axis 1 each triangular sweep "
                            "is pipelined in (at most one per 32 nodes of axis 1); 0: four "
                            "per rank the sweep passes through")
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

IterationSettings iteration_settings(const solvent::Parameters& p) {
  IterationSettings s;
  s.tolerance = p.real("tolerance");
  s.max_iterations = p.integer("max_iterations");
  s.omega0 = p.real("omega0");
  return s;
}

Outcome iterate(MatmBackend& backend, const IterationSettings& s) {
  Outcome o;
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
                            number(omega) + ")";
      break;
    }
    o.last = p;
    tau = p.tau;
    omega = p.omega_next;
  }
  return o;
}

Facts outcome_facts(const Outcome& o) {
  return {{"iterations", std::to_string(o.stats.iterations)},
          {"relative_residual", number(o.stats.residual)},
          {"status", o.stats.status},
          {"omega", number(o.last.omega)},
          {"s", number(std::sqrt(o.last.s2))},
          {"k", number(std::sqrt(o.last.k2))},
          {"theta", number(o.last.theta)},
          {"tau", number(o.last.tau)}};
}

}  // namespace solvent::matm
